import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createChainService } from '../src/modules/chain/chain.service';
import { createRpcFaults } from './helpers/rpc-faults';

// An RPC outage is CHAIN__RPC_UNAVAILABLE (502), not a 500: pino's error serialiser threw on kit's
// frozen SolanaError when the failure was logged, so the log line itself replaced the error.
describe('chain RPC failures', () => {
  it('logs a 503 from the node and answers CHAIN__RPC_UNAVAILABLE', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => void lines.push(line) });
    const faults = createRpcFaults();
    faults.takeDown();
    const chain = createChainService({
      rpcUrl: () => 'http://127.0.0.1:9',
      log,
      now: () => new Date(),
      transport: async () => {
        throw new Error('the cluster is never reached while the node is down');
      },
      wrapTransport: faults.wrap,
    });
    await expect(chain.getBlockHeight()).rejects.toMatchObject({ code: 'CHAIN__RPC_UNAVAILABLE' });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      method: 'getBlockHeight',
      err: { statusCode: 503, message: expect.stringContaining('503') },
    });
  });
});
