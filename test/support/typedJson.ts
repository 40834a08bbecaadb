// Tests read JSON whose shape the code under test promises (wire types, core results). JSON.parse returns
// `any`, which would switch type-checking off for every assertion that follows; these two helpers go through
// `unknown` and name the expected type once, so the rest of the test is checked against it.

export function parseAs<T>(text: string): T {
  const value: unknown = JSON.parse(text);
  return value as T;
}

export async function jsonOf<T>(res: { json(): Promise<unknown> }): Promise<T> {
  return (await res.json()) as T;
}
