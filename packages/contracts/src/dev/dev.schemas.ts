import { z } from 'zod';

export const ZOutboxQuerySchema = z.object({
  to: z.string().trim().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const ZOutboxEmailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  /** Links found in the body, so a developer (or a test) can follow a reset link without parsing. */
  links: z.array(z.string()),
  created_at: z.string(),
});
export type TOutboxEmail = z.infer<typeof ZOutboxEmailSchema>;
