import { getTransferSolInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCloseAccountInstruction,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import {
  address,
  createKeyPairSignerFromPrivateKeyBytes,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import {
  BOT_WITHDRAW_MIN_SOL,
  getToken,
  SOL_DECIMALS,
  VALIDATION_MESSAGES,
  WRAPPED_SOL_MINT,
  type TBotBalance,
  type TBotWithdrawResult,
} from '@solterm/contracts';
import { Dec, fromBaseUnits, RENT_EXEMPT_WALLET_LAMPORTS, toBaseUnits } from '@solterm/engine';
import { AppError } from '../../../lib/app-error';
import { decryptSecret, encryptSecret, generateCustodialKeypair } from '../../../lib/server-keys';
import {
  associatedTokenAddress,
  buildTransaction,
  LAMPORTS_PER_SIGNATURE,
  tokenLegInstructions,
  type ChainService,
} from '../../chain/chain.service';
import {
  landedAnswer,
  pendingAnswer,
  type IdempotentAnswer,
  type Relay,
  type ServerSendOutcome,
  type ServerTicketKind,
} from '../../relay/relay.service';
import { z } from 'zod';

const ZBotTransferPayload = z.object({
  /** withdraw: to the owner's wallet; draw: the owner's wrapped SOL into the bot, under approval. */
  purpose: z.enum(['withdraw', 'draw']),
  mint: z.string(),
  amount: z.string().regex(/^\d+$/),
});
type BotTransferPayload = z.infer<typeof ZBotTransferPayload>;
import type { BotFundsRepository } from './bot-funds.repository';

/** Why an on-chain bot cannot go on: its run stops with this message (never a silent failure). */
export class BotFundsError extends Error {}

/** A user's connected wallet as the bot's funds see it: the only place they come from and go to. */
export interface FundsOwner {
  id: string;
  solanaWalletAddress: string | null;
}

const SOL = { decimals: SOL_DECIMALS };
/** At most this many bot signers are kept per process, each for at most SIGNER_CACHE_TTL_MS. */
export const SIGNER_CACHE_MAX = 256;
export const SIGNER_CACHE_TTL_MS = 10 * 60_000;
const solText = (lamports: bigint) => fromBaseUnits(lamports, SOL.decimals).toFixed();

/**
 * The bot key of each user and what it holds. The key is made on first use, stored encrypted and
 * used only here, to sign the bot's own transactions: draws under the owner's approval, swaps, and
 * withdrawals — whose one destination is the owner's wallet.
 */
export function createBotWallet(deps: {
  repo: BotFundsRepository;
  chain: ChainService;
  relay: Relay;
  encryptionKey: Uint8Array;
  now: () => Date;
}) {
  const { repo, chain } = deps;

  /** The user's bot address, made and stored (encrypted) on first use. */
  async function addressOf(userId: string): Promise<string> {
    const existing = await repo.keyOf(userId);
    if (existing) return existing.address;
    const keypair = generateCustodialKeypair();
    const stored = await repo.insertKey({
      userId,
      address: keypair.address,
      encryptedSecret: encryptSecret(deps.encryptionKey, keypair.seed, keypair.address),
    });
    return stored.address;
  }

  /**
   * Signers of recent bot keys, per process: decrypting the seed and importing it as a WebCrypto key
   * (plus two key reads) cost a few ms on every bot trade. Bounded (least recently used out first,
   * SIGNER_CACHE_MAX), short-lived (SIGNER_CACHE_TTL_MS), holding non-extractable CryptoKeys only
   * (the seed is not kept), and forgotten when the user's delegation is revoked (forgetSigner).
   */
  const signers = new Map<string, { signer: Promise<KeyPairSigner>; at: number }>();

  async function loadSigner(userId: string): Promise<KeyPairSigner> {
    let row = await repo.keyOf(userId);
    if (!row) {
      await addressOf(userId);
      row = (await repo.keyOf(userId))!;
    }
    const seed = decryptSecret(deps.encryptionKey, row.encryptedSecret, row.address);
    try {
      return await createKeyPairSignerFromPrivateKeyBytes(seed);
    } finally {
      seed.fill(0);
    }
  }

  /** The bot key as a signer (decrypted on first use, then cached a short while; see `signers`). */
  function signerOf(userId: string): Promise<KeyPairSigner> {
    const at = performance.now();
    const cached = signers.get(userId);
    signers.delete(userId);
    if (cached && at - cached.at < SIGNER_CACHE_TTL_MS) {
      signers.set(userId, cached);
      return cached.signer;
    }
    const signer = loadSigner(userId);
    const entry = { signer, at };
    signers.set(userId, entry);
    // A failed load is not cached; an entry forgotten meanwhile stays forgotten.
    signer.catch(() => {
      if (signers.get(userId) === entry) signers.delete(userId);
    });
    while (signers.size > SIGNER_CACHE_MAX) signers.delete(signers.keys().next().value!);
    return signer;
  }

  /** Drops the user's cached signer (their delegation was revoked): the next use decrypts again. */
  function forgetSigner(userId: string): void {
    signers.delete(userId);
  }

  /** Every transaction the bot key signs is a relay server ticket (the bot's funds are its chain balances). */
  const botTransferKind: ServerTicketKind<BotTransferPayload> = {
    kind: 'bot_transfer',
    payload: ZBotTransferPayload,
  };
  deps.relay.server.registerKind(botTransferKind);

  /** Signs `instructions` as the bot (fee payer) and sends them as a ticket; answers the outcome. */
  async function sendAsBot(
    userId: string,
    signer: KeyPairSigner,
    instructions: Instruction[],
    payload: BotTransferPayload,
  ): Promise<ServerSendOutcome> {
    const built = await buildTransaction({
      feePayer: signer.address,
      instructions,
      lifetime: await chain.getLatestBlockhash(),
      coSigners: [signer],
    });
    return deps.relay.server.send({ kind: botTransferKind, userId, payload, built });
  }

  /** A bot transfer's answer to its request: landed, pending (202, with the signature), or refused. */
  function answerOf(sent: ServerSendOutcome, landed: () => Promise<TBotWithdrawResult>) {
    switch (sent.status) {
      case 'landed':
        return landed().then(landedAnswer);
      case 'pending':
        return Promise.resolve(pendingAnswer(sent.signature));
      case 'failed':
        throw new AppError('CHAIN__TRANSACTION_FAILED');
      case 'expired':
        throw new AppError('CHAIN__CONFIRMATION_TIMEOUT');
    }
  }

  /** Wrapped SOL the bot may still draw from `wallet`: 0 unless its account names the bot as delegate. */
  async function allowanceOf(wallet: string | null, bot: string): Promise<bigint> {
    if (!wallet) return 0n;
    const account = await chain.getTokenAccount(await associatedTokenAddress(wallet, WRAPPED_SOL_MINT));
    if (!account || account.delegate !== bot) return 0n;
    return account.delegatedAmount < account.amount ? account.delegatedAmount : account.amount;
  }

  return {
    addressOf,
    signerOf,
    forgetSigner,
    /** How many signers are cached (for tests). */
    cachedSigners: () => signers.size,
    allowanceOf,

    /** GET /bot/balance. */
    async balance(owner: FundsOwner): Promise<TBotBalance> {
      const bot = await addressOf(owner.id);
      const [lamports, tokens, allowance] = await Promise.all([
        chain.getBalance(bot),
        chain.getTokenBalances(bot),
        allowanceOf(owner.solanaWalletAddress, bot),
      ]);
      const spare = lamports - RENT_EXEMPT_WALLET_LAMPORTS - LAMPORTS_PER_SIGNATURE;
      return {
        bot_public_key: bot,
        balance: fromBaseUnits(lamports, SOL.decimals).toNumber(),
        lamports: lamports.toString(),
        withdrawable: spare > 0n ? fromBaseUnits(spare, SOL.decimals).toNumber() : 0,
        tokens: [...tokens.values()]
          .filter((token) => token.amount > 0n)
          .map((token) => ({
            mint: token.mint,
            symbol: getToken(token.mint)?.symbol ?? null,
            amount: fromBaseUnits(token.amount, token.decimals).toNumber(),
          })),
        allowance: fromBaseUnits(allowance, SOL.decimals).toNumber(),
      };
    },

    /**
     * POST /bot/withdraw: SOL from the bot back to the owner's wallet — the only destination there
     * is. The bot keeps the rent-exempt reserve and pays the fee.
     */
    async withdraw(owner: FundsOwner, amount: number): Promise<IdempotentAnswer> {
      if (!owner.solanaWalletAddress) throw new AppError('BOTS__WALLET_REQUIRED');
      if (!Number.isFinite(amount) || amount <= 0) throw new AppError('BOT__WITHDRAW_INVALID');
      const signer = await signerOf(owner.id);
      const lamports = await chain.getBalance(signer.address);
      if (lamports <= 0n) throw new AppError('BOT__NO_BALANCE');
      if (amount < BOT_WITHDRAW_MIN_SOL) throw new AppError('BOT__WITHDRAW_MINIMUM');
      const units = toBaseUnits(new Dec(amount), SOL.decimals);
      if (units > lamports) {
        throw new AppError(
          'BOT__INSUFFICIENT_BALANCE',
          VALIDATION_MESSAGES.insufficientBotBalance(solText(lamports), new Dec(amount).toFixed()),
        );
      }
      if (lamports - units - LAMPORTS_PER_SIGNATURE < RENT_EXEMPT_WALLET_LAMPORTS) {
        throw new AppError('BOT__RESERVE');
      }
      const to = owner.solanaWalletAddress;
      const sent = await sendAsBot(
        owner.id,
        signer,
        [getTransferSolInstruction({ source: signer, destination: address(to), amount: units })],
        { purpose: 'withdraw', mint: WRAPPED_SOL_MINT, amount: units.toString() },
      );
      return answerOf(sent, async () => ({
        transaction_hash: sent.signature,
        amount: fromBaseUnits(units, SOL.decimals).toNumber(),
        token_mint: WRAPPED_SOL_MINT,
        to_address: to,
        balance: fromBaseUnits(await chain.getBalance(signer.address), SOL.decimals).toNumber(),
      }));
    },

    /**
     * POST /bot/withdraw with token_mint: a token the bot holds (USDC after a sell, a position's
     * token) to the owner's wallet, opening its account there if needed (the bot pays the rent).
     */
    async withdrawToken(owner: FundsOwner, mint: string, amount: number): Promise<IdempotentAnswer> {
      if (!owner.solanaWalletAddress) throw new AppError('BOTS__WALLET_REQUIRED');
      if (!Number.isFinite(amount) || amount <= 0) throw new AppError('BOT__WITHDRAW_INVALID');
      const signer = await signerOf(owner.id);
      const held = (await chain.getTokenBalances(signer.address)).get(mint);
      if (!held || held.amount <= 0n) throw new AppError('BOT__NO_BALANCE');
      const units = toBaseUnits(new Dec(amount), held.decimals);
      if (units <= 0n) throw new AppError('BOT__WITHDRAW_INVALID');
      const symbol = getToken(mint)?.symbol ?? mint;
      if (units > held.amount) {
        throw new AppError(
          'BOT__INSUFFICIENT_BALANCE',
          `Insufficient bot balance. Available: ${fromBaseUnits(held.amount, held.decimals).toFixed()} ${symbol}, Requested: ${new Dec(amount).toFixed()} ${symbol}`,
        );
      }
      const to = owner.solanaWalletAddress;
      const sent = await sendAsBot(
        owner.id,
        signer,
        await tokenLegInstructions({
          token: { mint, decimals: held.decimals },
          from: signer,
          to,
          amount: units,
          createRecipientAccount: signer,
        }),
        { purpose: 'withdraw', mint, amount: units.toString() },
      );
      return answerOf(sent, async () => {
        const left = (await chain.getTokenBalances(signer.address)).get(mint)?.amount ?? 0n;
        return {
          transaction_hash: sent.signature,
          amount: fromBaseUnits(units, held.decimals).toNumber(),
          token_mint: mint,
          to_address: to,
          balance: fromBaseUnits(left, held.decimals).toNumber(),
        };
      });
    },

    /** Whether every transfer of the user's bot (draws, withdrawals) has settled, asking the chain now. */
    transfersSettled: (userId: string) => deps.relay.server.userSettled(userId, botTransferKind.kind),

    /**
     * Moves `lamports` of the owner's wrapped SOL into the bot's own account as SOL, under the
     * owner's approval (the token program refuses more than the allowance): the bot's wrapped-SOL
     * account is opened, credited and closed into the bot's lamports in one transaction.
     *
     * The ticket names the user, so that `transfersSettled` sees a draw still in flight.
     *
     * @throws BotFundsError when the allowance or the bot's fee balance is short.
     */
    async draw(userId: string, signer: KeyPairSigner, wallet: string, lamports: bigint): Promise<void> {
      const allowance = await allowanceOf(wallet, signer.address);
      if (allowance < lamports) {
        throw new BotFundsError(
          `its delegation allowance is used up (it needs ${solText(lamports)} SOL, ${solText(allowance)} SOL is left). Approve a new delegation to go on.`,
        );
      }
      const [source] = await findAssociatedTokenPda({
        owner: address(wallet),
        mint: address(WRAPPED_SOL_MINT),
        tokenProgram: TOKEN_PROGRAM_ADDRESS,
      });
      const own = await associatedTokenAddress(signer.address, WRAPPED_SOL_MINT);
      const mint = address(WRAPPED_SOL_MINT);
      const sent = await sendAsBot(
        userId,
        signer,
        [
          getCreateAssociatedTokenIdempotentInstruction({
            payer: signer,
            ata: own,
            owner: signer.address,
            mint,
          }),
          getTransferCheckedInstruction({
            source,
            mint,
            destination: own,
            authority: signer,
            amount: lamports,
            decimals: SOL.decimals,
          }),
          getCloseAccountInstruction({ account: own, destination: signer.address, owner: signer }),
        ],
        { purpose: 'draw', mint: WRAPPED_SOL_MINT, amount: lamports.toString() },
      );
      // A draw not known to have landed is not drawn again here: the ticket settles it, and the
      // owner's allowance (spent on chain) bounds whatever a later draw may take.
      if (sent.status === 'failed') throw new AppError('CHAIN__TRANSACTION_FAILED');
      if (sent.status !== 'landed') throw new AppError('CHAIN__CONFIRMATION_TIMEOUT');
    },
  };
}

export type BotWallet = ReturnType<typeof createBotWallet>;
