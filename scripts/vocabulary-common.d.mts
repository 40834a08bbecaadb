export declare const GUIDELINES: string;
export declare function commonValues(
  guidelinesFile: string,
  values: Record<string, string[]>,
): Record<string, string[]>;
