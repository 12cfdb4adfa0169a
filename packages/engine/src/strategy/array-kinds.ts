// Arrays made empty in the element kind they will hold. V8 makes `[]` an array of small integers; the
// first object or fraction pushed moves it to another kind, and code optimised on arrays already moved
// (a backtest makes new ones each run) deoptimises on that first push of every run.

/** An empty array that holds objects or strings from the start. */
export function emptyObjectArray<T>(): T[] {
  const array: T[] = [null as T];
  array.length = 0;
  return array;
}

/** An empty array that holds doubles from the start. */
export function emptyDoubleArray(): number[] {
  const array = [0.5];
  array.length = 0;
  return array;
}
