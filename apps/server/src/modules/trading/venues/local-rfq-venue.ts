import { createNoopSigner, address, type KeyPairSigner } from '@solana/kit';
import { WRAPPED_SOL_MINT } from '@solterm/contracts';
import { Dec, DEFAULT_RFQ_PRICING, quoteRfq, type RfqPricing } from '@solterm/engine';
import type { ChainService } from '../../chain/chain.service';
import { buildTransaction } from '../../chain/transaction-builder';
import {
  VenueError,
  type SpotQuote,
  type SpotQuoteRequest,
  type SpotSwapRequest,
  type SpotSwapTransaction,
  type SpotVenue,
  type VenueToken,
} from './spot-venue';
import { tokenLegInstructions } from '../../chain/token-legs';

export interface LocalRfqVenueDeps {
  chain: ChainService;
  /** The market maker: its inventory fills every swap, and it signs its leg before the wallet does. */
  maker: KeyPairSigner;
  /** USD price of a token (decimal string), from the market data feed. */
  usdPriceOf(token: VenueToken): Promise<string>;
  pricing?: RfqPricing;
}

/** What the maker holds of a token, in base units (lamports for SOL). */
async function makerHolding(chain: ChainService, maker: string, token: VenueToken): Promise<bigint> {
  if (token.mint === WRAPPED_SOL_MINT) return chain.getBalance(maker);
  return (await chain.getTokenBalances(maker)).get(token.mint)?.amount ?? 0n;
}

/** Lamports the maker keeps for fees and rent; it never quotes its SOL below this. */
const MAKER_SOL_RESERVE = 1_000_000_000n;

/**
 * The local RFQ market maker: quotes at the market-data mid with a spread, a venue fee and a
 * size-based price impact (engine `quoteRfq`), and builds one v0 transaction in which the wallet
 * pays one leg and the maker the other, signed by the maker before it is returned, so the swap is
 * atomic on chain. Quotes are firm: the transaction moves exactly the quoted amounts.
 */
export function createLocalRfqVenue(deps: LocalRfqVenueDeps): SpotVenue {
  const pricing = deps.pricing ?? DEFAULT_RFQ_PRICING;
  return {
    name: 'local-rfq',

    async quote(request: SpotQuoteRequest): Promise<SpotQuote> {
      const [baseUsd, quoteUsd] = await Promise.all([
        deps.usdPriceOf(request.base),
        deps.usdPriceOf(request.quote),
      ]);
      const midPrice = new Dec(baseUsd).div(quoteUsd);
      const rfq = quoteRfq({
        side: request.side,
        baseAmount: request.baseAmount,
        baseDecimals: request.base.decimals,
        quoteDecimals: request.quote.decimals,
        midPrice,
        quoteUsdPrice: new Dec(quoteUsd),
        pricing,
      });
      if (rfq.quoteAmount <= 0n) throw new VenueError('bad_request', 'The amount is too small to quote');
      // The maker must hold what it gives: base on a buy, quote on a sell.
      const [givenToken, givenAmount] =
        request.side === 'Buy' ? [request.base, request.baseAmount] : [request.quote, rfq.quoteAmount];
      const held = await makerHolding(deps.chain, deps.maker.address, givenToken);
      const spendable = givenToken.mint === WRAPPED_SOL_MINT ? held - MAKER_SOL_RESERVE : held;
      if (givenAmount > spendable) {
        throw new VenueError(
          'no_liquidity',
          `The market maker cannot fill this size of ${givenToken.symbol}`,
        );
      }
      return {
        venue: 'local-rfq',
        request,
        quoteAmount: rfq.quoteAmount,
        quoteAmountLimit: rfq.quoteAmount,
        price: rfq.price,
        marketPrice: midPrice,
        venueFee: rfq.venueFee,
        priceImpactBps: rfq.priceImpactBps,
      };
    },

    async buildSwap(request: SpotSwapRequest): Promise<SpotSwapTransaction> {
      const { quote } = request;
      const { base, quote: quoteToken, side, baseAmount } = quote.request;
      const user = createNoopSigner(address(request.userAddress));
      const [userGives, makerGives] =
        side === 'Buy'
          ? [
              { token: quoteToken, amount: quote.quoteAmount },
              { token: base, amount: baseAmount },
            ]
          : [
              { token: base, amount: baseAmount },
              { token: quoteToken, amount: quote.quoteAmount },
            ];
      const lifetimeRead = deps.chain.getLatestBlockhash();
      lifetimeRead.catch(() => undefined);
      const instructions = [
        ...(await tokenLegInstructions({ ...userGives, from: user, to: deps.maker.address })),
        ...(await tokenLegInstructions({
          ...makerGives,
          from: deps.maker,
          to: request.userAddress,
          createRecipientAccount: user,
        })),
      ];
      const lifetime = await lifetimeRead;
      const built = await buildTransaction({
        feePayer: user.address,
        instructions,
        lifetime,
        coSigners: [deps.maker],
        priorityFeeMicroLamports: request.priorityFeeMicroLamports,
      });
      return {
        wireBytes: built.wireBytes,
        messageBytes: built.messageBytes,
        lastValidBlockHeight: built.lastValidBlockHeight,
        sizeBytes: built.sizeBytes,
        networkFeeLamports: built.networkFeeLamports,
      };
    },
  };
}
