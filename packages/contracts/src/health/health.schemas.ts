import { z } from 'zod';

export const NETWORKS = ['localnet', 'devnet', 'testnet', 'mainnet'] as const;
export const ZNetworkSchema = z.enum(NETWORKS);
export type TNetwork = z.infer<typeof ZNetworkSchema>;

export const ZHealthSchema = z.object({
  status: z.literal('ok'),
  network: ZNetworkSchema,
  version: z.string(),
  database: z.enum(['pglite', 'postgres']),
  uptime_s: z.number(),
  /** What this server can run: Python strategies need a sandbox walled off the network. */
  sandbox: z.object({
    python: z.object({ available: z.boolean(), reason: z.string().nullable() }),
  }),
});
export type THealth = z.infer<typeof ZHealthSchema>;

/** True on every network where test features (faucet, dev outbox, Local wallet) are offered. */
export function isTestNetwork(network: TNetwork): boolean {
  return network !== 'mainnet';
}
