import type { TransactionError } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../lib/app-error';
import { RelayError, type RelayErrorCode } from '../relay/relay.service';
import { tradeErrorCodeOf, walletTransactionErrorOf } from './chain-error-mapping';

const codeOf = (error: unknown) => (isAppError(error) ? error.code : error);

describe('walletTransactionErrorOf: the relay refusing a wallet-signed transaction, in trading words', () => {
  it.each([
    ['RELAY__TRANSACTION_INVALID', 'TRADING__TRANSACTION_INVALID'],
    ['RELAY__SIGNATURE_MISSING', 'TRADING__SIGNATURE_MISSING'],
    ['RELAY__SIGNATURE_INVALID', 'TRADING__SIGNATURE_INVALID'],
    ['RELAY__TRANSACTION_UNKNOWN', 'TRADING__TRANSACTION_UNKNOWN'],
    ['RELAY__TRANSACTION_MODIFIED', 'TRADING__TRANSACTION_MODIFIED'],
    ['RELAY__TRANSACTION_EXPIRED', 'TRADING__TRANSACTION_EXPIRED'],
    ['RELAY__ALREADY_EXECUTED', 'TRADING__ALREADY_EXECUTED'],
    ['RELAY__SIMULATION_FAILED', 'TRADING__SIMULATION_FAILED'],
  ] as const)('%s is %s', (relayCode, tradingCode) => {
    expect(codeOf(walletTransactionErrorOf(new RelayError(relayCode)))).toBe(tradingCode);
  });

  it("words a simulation's or a landing's chain error as the spec's trade message", () => {
    const shortfall: TransactionError = { InstructionError: [2, { Custom: 1 }] };
    for (const code of ['RELAY__SIMULATION_FAILED', 'RELAY__TRANSACTION_FAILED'] as const) {
      expect(codeOf(walletTransactionErrorOf(new RelayError(code, code, 'sig', shortfall)))).toBe(
        'TRADING__INSUFFICIENT_FUNDS',
      );
      expect(codeOf(walletTransactionErrorOf(new RelayError(code, code, 'sig', 'AlreadyProcessed')))).toBe(
        tradeErrorCodeOf('AlreadyProcessed'),
      );
    }
  });

  it('passes an unknown outcome, the Idempotency-Key refusals and non-relay errors through unchanged', () => {
    const passing: RelayErrorCode[] = [
      'RELAY__OUTCOME_UNKNOWN',
      'RELAY__IDEMPOTENCY_CONFLICT',
      'RELAY__IDEMPOTENCY_IN_PROGRESS',
      'RELAY__RPC_UNAVAILABLE',
    ];
    for (const code of passing) {
      const error = new RelayError(code);
      expect(walletTransactionErrorOf(error)).toBe(error);
    }
    const other = new Error('boom');
    expect(walletTransactionErrorOf(other)).toBe(other);
  });
});
