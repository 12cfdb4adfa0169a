import { z } from 'zod';

/** The failure envelope every /api route answers with: `{ success: false, error }`. */
export const ZApiFailureSchema = z.object({
  success: z.literal(false),
  error: z.string(),
  /** Stable machine-readable code from {@link ErrorCode}; branch on this, never on `error`. */
  code: z.string().optional(),
});
export type TApiFailure = z.infer<typeof ZApiFailureSchema>;

/**
 * Wraps a data schema in the success envelope `{ success: true, data }`.
 *
 * @example
 * const ZProfileResponse = success(ZUserSchema); // { success: true, data: User }
 */
export function success<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export type TApiSuccess<T> = { success: true; data: T };
export type TApiResponse<T> = TApiSuccess<T> | TApiFailure;
