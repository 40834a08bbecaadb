// The key of a cell (dataset item × variant) in maps of cells; its own module so browser code (the results
// grid's webview) can use it without the runner.
export const cellKey = (item: number, variant: string): string => `${item}\u0000${variant}`;
