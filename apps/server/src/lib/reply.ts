/** The success envelope: every /api route answers `{ success: true, data }`. */
export function ok<T>(data: T): { success: true; data: T } {
  return { success: true, data };
}
