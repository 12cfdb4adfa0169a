import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  getSetComputeUnitLimitInstruction,
  getSetComputeUnitPriceInstruction,
} from '@solana-program/compute-budget';
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  blockhash,
  compileTransaction,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  partiallySignTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Instruction,
} from '@solana/kit';

/**
 * A local stand-in for Jupiter's Swap API v1 (lite-api.jup.ag/swap/v1): GET /quote and POST /swap
 * answer with Jupiter's recorded response shapes, and /swap returns a real v0 transaction compiled
 * with @solana/kit, so callers decode what they would decode in production. Tests script failures
 * per path with `behave`.
 */

export const SOL_MINT = 'So11111111111111111111111111111111111111112';
export const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const JUPITER_PROGRAM = 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4';
/** The fake routes 70 % through a pool charging its fee in the output mint, 30 % in the input mint. */
export const FAKE_FEE_BPS = 25n;
export const FAKE_PRICE_IMPACT_PCT = '0.0012';
export const FAKE_COMPUTE_UNIT_LIMIT = 200_000;

/** Output base units per input base unit, as [numerator, denominator]: 150 USDC per SOL both ways. */
const DEFAULT_RATES: Record<string, readonly [bigint, bigint]> = {
  [`${SOL_MINT}>${USDC_MINT}`]: [3n, 20n],
  [`${USDC_MINT}>${SOL_MINT}`]: [20n, 3n],
};

export type JupiterFakeBehaviour =
  | 'ok'
  /** Never answers. */
  | 'hang'
  /** Sends 200 headers and part of the body, then stalls. */
  | 'hang-body'
  | 'server-error'
  | 'rate-limited'
  | 'no-route'
  | 'not-tradable'
  | 'bad-request'
  /** 200 with a body that is not JSON. */
  | 'garbage';

export type JupiterFakePath = '/quote' | '/swap';

export interface FakeSwapTransactionOptions {
  /** Builds the transaction for this fee payer instead of `userPublicKey`. */
  feePayer?: string;
  /** Bytes of the swap instruction's data (default 24); a large value makes the transaction oversize. */
  instructionDataBytes?: number;
  /** Adds a second (venue) signer whose signature is in place ('signed') or missing ('unsigned'). */
  coSigner?: 'signed' | 'unsigned';
  /** Answers this instead of a transaction. */
  swapTransaction?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface JupiterSwapFake {
  /** Base URL, like https://lite-api.jup.ag/swap/v1. */
  url: string;
  requests: RecordedRequest[];
  /** Every quote body served, in order. */
  quotes: Record<string, unknown>[];
  /** Every /swap answer served, in order. */
  swaps: Record<string, unknown>[];
  /** How the next requests to `path` (or to both paths) are answered, until changed or reset. */
  behave(behaviour: JupiterFakeBehaviour, path?: JupiterFakePath): void;
  /** Shapes the transactions /swap builds next. */
  swapTransaction: FakeSwapTransactionOptions;
  reset(): void;
  close(): Promise<void>;
}

const ceilDiv = (numerator: bigint, denominator: bigint) => (numerator + denominator - 1n) / denominator;

function quoteBody(
  inputMint: string,
  outputMint: string,
  amount: bigint,
  slippageBps: bigint,
  swapMode: 'ExactIn' | 'ExactOut',
  [num, den]: readonly [bigint, bigint],
): Record<string, unknown> {
  const keep = 10_000n - FAKE_FEE_BPS;
  let in1: bigint, in2: bigint, out1: bigint, out2: bigint, fee1: bigint, fee2: bigint;
  if (swapMode === 'ExactIn') {
    in1 = (amount * 70n) / 100n;
    in2 = amount - in1;
    const gross1 = (in1 * num) / den;
    fee1 = (gross1 * FAKE_FEE_BPS) / 10_000n;
    out1 = gross1 - fee1;
    fee2 = (in2 * FAKE_FEE_BPS) / 10_000n;
    out2 = ((in2 - fee2) * num) / den;
  } else {
    out1 = (amount * 70n) / 100n;
    out2 = amount - out1;
    const gross1 = ceilDiv(out1 * 10_000n, keep);
    fee1 = gross1 - out1;
    in1 = ceilDiv(gross1 * den, num);
    const net2 = ceilDiv(out2 * den, num);
    in2 = ceilDiv(net2 * 10_000n, keep);
    fee2 = in2 - net2;
  }
  const inAmount = in1 + in2;
  const outAmount = out1 + out2;
  const otherAmountThreshold =
    swapMode === 'ExactIn'
      ? (outAmount * (10_000n - slippageBps)) / 10_000n
      : ceilDiv(inAmount * (10_000n + slippageBps), 10_000n);
  return {
    inputMint,
    inAmount: inAmount.toString(),
    outputMint,
    outAmount: outAmount.toString(),
    otherAmountThreshold: otherAmountThreshold.toString(),
    swapMode,
    slippageBps: Number(slippageBps),
    platformFee: null,
    priceImpactPct: FAKE_PRICE_IMPACT_PCT,
    routePlan: [
      {
        swapInfo: {
          ammKey: 'HXpGFJGCEEFdV31tDmjDBaJMEB1fKLiAoKoWr3Fnonid',
          label: 'Meteora DLMM',
          inputMint,
          outputMint,
          inAmount: in1.toString(),
          outAmount: out1.toString(),
          feeAmount: fee1.toString(),
          feeMint: outputMint,
        },
        percent: 70,
        bps: 7000,
      },
      {
        swapInfo: {
          ammKey: '8sLbNZoA1cfnvMJLPfp98ZLAnFSYCFApfJKMbiXNLwxj',
          label: 'Raydium CLMM',
          inputMint,
          outputMint,
          inAmount: in2.toString(),
          outAmount: out2.toString(),
          feeAmount: fee2.toString(),
          feeMint: inputMint,
        },
        percent: 30,
        bps: 3000,
      },
    ],
    contextSlot: 324_307_186,
    timeTaken: 0.012,
    swapUsdValue: '0',
    simplerRouteUsed: false,
  };
}

async function swapBody(request: Record<string, unknown>, options: FakeSwapTransactionOptions) {
  const user = address(String(request.userPublicKey));
  const quote = request.quoteResponse as { inputMint: string; outputMint: string };
  const feePayer = address(options.feePayer ?? user);
  const microLamports = Number(request.computeUnitPriceMicroLamports ?? 0);
  const coSigner = options.coSigner ? await generateKeyPairSigner() : undefined;
  const accounts: Instruction['accounts'] = [
    { address: feePayer, role: AccountRole.WRITABLE_SIGNER },
    ...(coSigner ? [{ address: coSigner.address, role: AccountRole.READONLY_SIGNER }] : []),
    { address: address(quote.inputMint), role: AccountRole.READONLY },
    { address: address(quote.outputMint), role: AccountRole.READONLY },
  ];
  const swap: Instruction = {
    programAddress: JUPITER_PROGRAM as Address,
    accounts,
    data: new Uint8Array(options.instructionDataBytes ?? 24),
  };
  const lastValidBlockHeight = 324_307_300n;
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (draft) => setTransactionMessageFeePayer(feePayer, draft),
    (draft) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: blockhash(getBase58Decoder().decode(randomBytes(32))), lastValidBlockHeight },
        draft,
      ),
    (draft) =>
      appendTransactionMessageInstructions(
        [
          getSetComputeUnitLimitInstruction({ units: FAKE_COMPUTE_UNIT_LIMIT }),
          getSetComputeUnitPriceInstruction({ microLamports: BigInt(microLamports) }),
          swap,
        ],
        draft,
      ),
  );
  let transaction = compileTransaction(message);
  if (coSigner && options.coSigner === 'signed') {
    transaction = await partiallySignTransaction([coSigner.keyPair], transaction);
  }
  return {
    swapTransaction: options.swapTransaction ?? getBase64EncodedWireTransaction(transaction),
    lastValidBlockHeight: Number(lastValidBlockHeight),
    prioritizationFeeLamports: Math.ceil((microLamports * FAKE_COMPUTE_UNIT_LIMIT) / 1_000_000),
    computeUnitLimit: FAKE_COMPUTE_UNIT_LIMIT,
    prioritizationType: { computeBudget: { microLamports, estimatedMicroLamports: microLamports } },
    dynamicSlippageReport: null,
    simulationError: null,
  };
}

const FAILURES = {
  'server-error': [500, { error: 'Internal Server Error' }],
  'rate-limited': [429, { code: 429, message: 'Too Many Requests' }],
  'no-route': [400, { error: 'Could not find any route', errorCode: 'COULD_NOT_FIND_ANY_ROUTE' }],
  'not-tradable': [
    400,
    {
      error: 'The token DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263 is not tradable',
      errorCode: 'TOKEN_NOT_TRADABLE',
    },
  ],
  'bad-request': [400, { error: 'Query parameter amount cannot be parsed', errorCode: 'INVALID_REQUEST' }],
} satisfies Partial<Record<JupiterFakeBehaviour, [number, unknown]>>;
const failureOf = (behaviour: JupiterFakeBehaviour): [number, unknown] | undefined =>
  (FAILURES as Partial<Record<JupiterFakeBehaviour, [number, unknown]>>)[behaviour];

/** Starts the fake on 127.0.0.1 and a free port. */
export async function startJupiterSwapFake(
  rates: Record<string, readonly [bigint, bigint]> = DEFAULT_RATES,
): Promise<JupiterSwapFake> {
  const knownMints = new Set(Object.keys(rates).flatMap((pair) => pair.split('>')));
  const behaviours = new Map<JupiterFakePath, JupiterFakeBehaviour>();

  const fake: JupiterSwapFake = {
    url: '',
    requests: [],
    quotes: [],
    swaps: [],
    swapTransaction: {},
    behave(behaviour, path) {
      for (const target of path ? [path] : (['/quote', '/swap'] as const)) behaviours.set(target, behaviour);
    },
    reset() {
      behaviours.clear();
      fake.requests.length = 0;
      fake.quotes.length = 0;
      fake.swaps.length = 0;
      fake.swapTransaction = {};
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };

  async function handle(request: http.IncomingMessage, response: http.ServerResponse, text: string) {
    const url = new URL(request.url ?? '/', 'http://fake');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    fake.requests.push({
      method: request.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: request.headers,
      body,
    });
    const answer = (status: number, payload: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(payload));
    };
    const path = url.pathname as JupiterFakePath;
    const route =
      path === '/quote' && request.method === 'GET'
        ? 'quote'
        : path === '/swap' && request.method === 'POST'
          ? 'swap'
          : undefined;
    if (!route) return answer(404, { error: 'Route not found' });

    const behaviour = behaviours.get(path) ?? 'ok';
    if (behaviour === 'hang') return;
    if (behaviour === 'hang-body') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"inputMint":');
      return;
    }
    if (behaviour === 'garbage') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>maintenance</html>');
      return;
    }
    const failure = failureOf(behaviour);
    if (failure) return answer(...failure);

    if (route === 'quote') {
      const query = url.searchParams;
      const inputMint = query.get('inputMint') ?? '';
      const outputMint = query.get('outputMint') ?? '';
      const amount = query.get('amount') ?? '';
      const swapMode = query.get('swapMode') ?? 'ExactIn';
      const slippageBps = query.get('slippageBps') ?? '50';
      if (
        !/^\d+$/.test(amount) ||
        !/^\d+$/.test(slippageBps) ||
        (swapMode !== 'ExactIn' && swapMode !== 'ExactOut')
      ) {
        return answer(...FAILURES['bad-request']);
      }
      for (const mint of [inputMint, outputMint]) {
        if (!knownMints.has(mint)) {
          return answer(400, { error: `The token ${mint} is not tradable`, errorCode: 'TOKEN_NOT_TRADABLE' });
        }
      }
      const rate = rates[`${inputMint}>${outputMint}`];
      if (!rate) return answer(...FAILURES['no-route']);
      const quote = quoteBody(inputMint, outputMint, BigInt(amount), BigInt(slippageBps), swapMode, rate);
      fake.quotes.push(quote);
      return answer(200, quote);
    }

    const swapRequest = body as Record<string, unknown> | undefined;
    if (typeof swapRequest?.userPublicKey !== 'string' || typeof swapRequest.quoteResponse !== 'object') {
      return answer(400, { error: 'Invalid request body', errorCode: 'INVALID_REQUEST' });
    }
    const swap = await swapBody(swapRequest, fake.swapTransaction);
    fake.swaps.push(swap);
    return answer(200, swap);
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      handle(request, response, Buffer.concat(chunks).toString('utf8')).catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: String(error) }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
