import {
  tokenSafetyLevel,
  type TTokenSafetyFlag,
  type TTokenSafetyHolder,
  type TTokenSafetyLevel,
} from '@solterm/contracts';
import { Dec } from '@solterm/engine';
import { toWireNumber } from '../../lib/wire-decimal';
import type { LargestTokenAccount, ParsedExtension, ParsedMint } from '../chain/chain.service';

/** Concentration thresholds, percent of the supply (holders that are not known accounts). */
export const TOP10_WARNING_PERCENT = 50;
export const SINGLE_HOLDER_WARNING_PERCENT = 20;
export const SINGLE_HOLDER_DANGER_PERCENT = 50;

/** What the flags are computed from: the mint, its largest holders, and who is known. */
export interface SafetyFacts {
  mint: ParsedMint;
  largest: LargestTokenAccount[];
  /** Labels of known accounts by wallet (the venue's maker, escrow, vault): not concentration. */
  knownAccounts: ReadonlyMap<string, string>;
  /** The issuer, when the mint's authorities are known to be its issuer's (USDC: Circle; the cluster treasury). */
  issuer?: string;
}

export interface SafetyAssessment {
  topHolders: TTokenSafetyHolder[];
  top10Share: number;
  flags: TTokenSafetyFlag[];
  level: TTokenSafetyLevel;
}

/** Percent of the supply, exact in decimals, two decimals half up. */
function percentOf(amount: bigint, supply: bigint): Dec {
  if (supply === 0n) return new Dec(0);
  return new Dec(amount.toString()).times(100).div(supply.toString()).toDecimalPlaces(2);
}

function extensionState(extensions: readonly ParsedExtension[], name: string) {
  return extensions.find((entry) => entry.extension === name);
}

/** Whole tokens of a base-unit amount, as text. */
function wholeTokens(amount: bigint, decimals: number): string {
  return new Dec(amount.toString()).div(new Dec(10).pow(decimals)).toFixed();
}

function authorityFlags(facts: SafetyFacts): TTokenSafetyFlag[] {
  const { mint, issuer } = facts;
  const flags: TTokenSafetyFlag[] = [];
  if (mint.mintAuthority) {
    flags.push({
      code: 'mint_authority',
      severity: issuer ? 'info' : 'warning',
      message: issuer
        ? `Mint authority held by ${issuer}, the issuer: the supply can grow`
        : `Mint authority not revoked: ${mint.mintAuthority} can mint more, so the supply can grow`,
    });
  }
  if (mint.freezeAuthority) {
    flags.push({
      code: 'freeze_authority',
      severity: issuer ? 'info' : 'danger',
      message: issuer
        ? `Freeze authority held by ${issuer}, the issuer: it can freeze token accounts`
        : `Freeze authority present: ${mint.freezeAuthority} can freeze your tokens so you cannot sell them`,
    });
  }
  return flags;
}

/** The Token-2022 extensions that change what a holder can do with the token. */
function extensionFlags(mint: ParsedMint): TTokenSafetyFlag[] {
  const flags: TTokenSafetyFlag[] = [];
  const delegate = extensionState(mint.extensions, 'permanentDelegate')?.state?.delegate;
  if (typeof delegate === 'string') {
    flags.push({
      code: 'permanent_delegate',
      severity: 'danger',
      message: `Permanent delegate ${delegate}: it can transfer or burn tokens from any holder, so your tokens can be taken`,
    });
  }
  const hookProgram = extensionState(mint.extensions, 'transferHook')?.state?.programId;
  if (typeof hookProgram === 'string') {
    flags.push({
      code: 'transfer_hook',
      severity: 'danger',
      message: `Transfer hook: program ${hookProgram} runs arbitrary code on every transfer and can block or tax it`,
    });
  }
  const feeConfig = extensionState(mint.extensions, 'transferFeeConfig')?.state;
  if (feeConfig) {
    // Both the older and the newer fee can apply depending on the epoch: show the higher.
    const fees = [feeConfig.olderTransferFee, feeConfig.newerTransferFee] as {
      transferFeeBasisPoints: number;
      maximumFee: number | string;
    }[];
    const fee = fees.reduce((high, next) =>
      next.transferFeeBasisPoints > high.transferFeeBasisPoints ? next : high,
    );
    if (fee.transferFeeBasisPoints > 0) {
      const rate = new Dec(fee.transferFeeBasisPoints).div(100).toFixed();
      const cap = wholeTokens(BigInt(fee.maximumFee), mint.decimals);
      flags.push({
        code: 'transfer_fee',
        severity: 'warning',
        message: `Transfer fee of ${rate}% (at most ${cap} tokens) is withheld from every transfer, buys and sells included`,
      });
    }
  }
  if (extensionState(mint.extensions, 'nonTransferable')) {
    flags.push({
      code: 'non_transferable',
      severity: 'danger',
      message: 'Non-transferable: tokens cannot be sent or sold once held',
    });
  }
  if (extensionState(mint.extensions, 'defaultAccountState')?.state?.accountState === 'frozen') {
    flags.push({
      code: 'default_account_frozen',
      severity: 'danger',
      message: 'Default account state frozen: new token accounts start frozen until the issuer thaws them',
    });
  }
  return flags;
}

/**
 * The flags, holders and level of a mint. Known accounts are labelled and left out of the
 * concentration figures (their share is the venue's inventory, not a holder's).
 */
export function assessTokenSafety(facts: SafetyFacts): SafetyAssessment {
  const { mint, knownAccounts } = facts;
  const topHolders: TTokenSafetyHolder[] = facts.largest
    .filter((account) => account.amount > 0n)
    .map((account) => ({
      address: account.owner ?? account.tokenAccount,
      token_account: account.tokenAccount,
      amount: account.amount.toString(),
      share: toWireNumber(percentOf(account.amount, mint.supply).toFixed(2)),
      label: (account.owner && knownAccounts.get(account.owner)) ?? null,
    }));
  const counted = facts.largest.filter(
    (account) => account.amount > 0n && !(account.owner && knownAccounts.has(account.owner)),
  );
  const top10 = percentOf(
    counted.slice(0, 10).reduce((sum, account) => sum + account.amount, 0n),
    mint.supply,
  );
  const largest = percentOf(counted[0]?.amount ?? 0n, mint.supply);
  const flags = [...authorityFlags(facts), ...extensionFlags(mint)];
  if (top10.gt(TOP10_WARNING_PERCENT)) {
    flags.push({
      code: 'top10_concentration',
      severity: 'warning',
      message: `Top 10 holders own ${top10.toFixed(2)}% of the supply (above ${TOP10_WARNING_PERCENT}%)`,
    });
  }
  if (largest.gt(SINGLE_HOLDER_WARNING_PERCENT)) {
    flags.push({
      code: 'single_holder_concentration',
      severity: largest.gt(SINGLE_HOLDER_DANGER_PERCENT) ? 'danger' : 'warning',
      message: `One account (${counted[0]!.owner ?? counted[0]!.tokenAccount}) holds ${largest.toFixed(2)}% of the supply (above ${SINGLE_HOLDER_WARNING_PERCENT}%)`,
    });
  }
  return {
    topHolders,
    top10Share: toWireNumber(top10.toFixed(2)),
    flags,
    level: tokenSafetyLevel(flags),
  };
}
