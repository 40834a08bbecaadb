// JSON read back in a test is whatever the code under test sent. The test names the shape it
// expects and its assertions check the values; going through `unknown` keeps `any` out of tests.

/** Parses `text` as JSON of the shape the caller expects. */
export function parseAs<T>(text: string): T {
  const value: unknown = JSON.parse(text);
  return value as T;
}

/** The JSON body of a fetch-style response, as the shape the caller expects. */
export async function jsonOf<T>(res: { json(): Promise<unknown> }): Promise<T> {
  const value = await res.json();
  return value as T;
}
