// Keyboard movement between rows of the grid, as spreadsheets do it: arrows move one row, Page
// Up/Down a screenful, Home/End to the ends; the result is always a position inside the list.

/** Row movement per key: ±1 row, ±2 = a page, or an end of the list. */
const ROW_KEYS: Record<string, number | 'first' | 'last'> = {
  ArrowDown: 1,
  ArrowUp: -1,
  PageDown: 2,
  PageUp: -2,
  Home: 'first',
  End: 'last',
};

export function isRowKey(key: string): boolean {
  return Object.hasOwn(ROW_KEYS, key);
}

/** The display position `key` moves to from `current` in a list of `length` rows (`page` rows a screen). */
export function rowAfterKey(key: string, current: number, length: number, page: number): number {
  const step = ROW_KEYS[key];
  const target =
    step === 'first'
      ? 0
      : step === 'last'
        ? length - 1
        : current + (Math.abs(step) === 2 ? Math.sign(step) * page : step);
  return Math.max(0, Math.min(length - 1, target));
}
