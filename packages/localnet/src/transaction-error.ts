/**
 * Transaction errors as Solana RPC reports them: the serde JSON of agave's `TransactionError`
 * (`"BlockhashNotFound"`, `{"InstructionError":[0,{"Custom":1}]}`) and its Display text, which
 * validators put in messages such as "Transaction simulation failed: Blockhash not found".
 */

export type InstructionErrorJson = string | { Custom: number } | { BorshIoError: string };

export type TransactionErrorJson =
  | string
  | { InstructionError: [number, InstructionErrorJson] }
  | { DuplicateInstruction: number }
  | { InsufficientFundsForRent: { account_index: number } }
  | { ProgramExecutionTemporarilyRestricted: { account_index: number } };

/** LiteSVM's `TransactionErrorFieldless` numbering, which follows agave's enum order. */
const TRANSACTION_ERROR_NAMES = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
] as const;

/** LiteSVM's `InstructionErrorFieldless` numbering (agave's `InstructionError` order). */
const INSTRUCTION_ERROR_NAMES = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
] as const;

const TRANSACTION_ERROR_TEXT: Readonly<Record<string, string>> = {
  AccountInUse: 'Account in use',
  AccountLoadedTwice: 'Account loaded twice',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  ProgramAccountNotFound: 'Attempt to load a program that does not exist',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  InvalidAccountForFee: 'This account may not be used to pay transaction fees',
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  CallChainTooDeep: 'Loader call chain is too deep',
  MissingSignatureForFee: 'Transaction requires a fee but has no signature present',
  InvalidAccountIndex: 'Transaction contains an invalid account reference',
  SignatureFailure: 'Transaction did not pass signature verification',
  InvalidProgramForExecution: 'This program may not be used for executing instructions',
  SanitizeFailure: 'Transaction failed to sanitize accounts offsets correctly',
  ClusterMaintenance: 'Transactions are currently disabled due to cluster maintenance',
  AccountBorrowOutstanding: 'Transaction processing left an account with an outstanding borrowed reference',
  WouldExceedMaxBlockCostLimit: 'Transaction would exceed max Block Cost Limit',
  UnsupportedVersion: 'Transaction version is unsupported',
  InvalidWritableAccount: 'Transaction loads a writable account that cannot be written',
  WouldExceedMaxAccountCostLimit: 'Transaction would exceed max account limit within the block',
  WouldExceedAccountDataBlockLimit: 'Transaction would exceed account data limit within the block',
  TooManyAccountLocks: 'Transaction locked too many accounts',
  AddressLookupTableNotFound: "Transaction loads an address table account that doesn't exist",
  InvalidAddressLookupTableOwner: 'Transaction loads an address table account with an invalid owner',
  InvalidAddressLookupTableData: 'Transaction loads an address table account with invalid data',
  InvalidAddressLookupTableIndex: 'Transaction address table lookup uses an invalid index',
  InvalidRentPayingAccount: 'Transaction leaves an account with a lower balance than rent-exempt minimum',
  WouldExceedMaxVoteCostLimit: 'Transaction would exceed max Vote Cost Limit',
  WouldExceedAccountDataTotalLimit: 'Transaction would exceed total account data limit',
  MaxLoadedAccountsDataSizeExceeded: 'Transaction exceeded max loaded accounts data size cap',
  InvalidLoadedAccountsDataSizeLimit:
    'LoadedAccountsDataSizeLimit set for transaction must be greater than 0.',
  ResanitizationNeeded: 'ResanitizationNeeded',
  UnbalancedTransaction: 'Sum of account balances before and after transaction do not match',
  ProgramCacheHitMaxLimit: 'Program cache hit max limit',
  CommitCancelled: 'CommitCancelled',
};

const INSTRUCTION_ERROR_TEXT: Readonly<Record<string, string>> = {
  GenericError: 'generic instruction error',
  InvalidArgument: 'invalid program argument',
  InvalidInstructionData: 'invalid instruction data',
  InvalidAccountData: 'invalid account data for instruction',
  AccountDataTooSmall: 'account data too small for instruction',
  InsufficientFunds: 'insufficient funds for instruction',
  IncorrectProgramId: 'incorrect program id for instruction',
  MissingRequiredSignature: 'missing required signature for instruction',
  AccountAlreadyInitialized: 'instruction requires an uninitialized account',
  UninitializedAccount: 'instruction requires an initialized account',
  UnbalancedInstruction: 'sum of account balances before and after instruction do not match',
  ModifiedProgramId: 'instruction illegally modified the program id of an account',
  ExternalAccountLamportSpend: 'instruction spent from the balance of an account it does not own',
  ExternalAccountDataModified: 'instruction modified data of an account it does not own',
  ReadonlyLamportChange: 'instruction changed the balance of a read-only account',
  ReadonlyDataModified: 'instruction modified data of a read-only account',
  DuplicateAccountIndex: 'instruction contains duplicate accounts',
  ExecutableModified: 'instruction changed executable bit of an account',
  RentEpochModified: 'instruction modified rent epoch of an account',
  NotEnoughAccountKeys: 'insufficient account keys for instruction',
  AccountDataSizeChanged: "program other than the account's owner changed the size of the account data",
  AccountNotExecutable: 'instruction expected an executable account',
  AccountBorrowFailed: 'instruction tries to borrow reference for an account which is already borrowed',
  AccountBorrowOutstanding: 'instruction left account with an outstanding borrowed reference',
  DuplicateAccountOutOfSync: 'instruction modifications of multiply-passed account differ',
  InvalidError: 'program returned invalid error code',
  ExecutableDataModified: 'instruction changed executable accounts data',
  ExecutableLamportChange: 'instruction changed the balance of an executable account',
  ExecutableAccountNotRentExempt: 'executable accounts must be rent exempt',
  UnsupportedProgramId: 'Unsupported program id',
  CallDepth: 'Cross-program invocation call depth too deep',
  MissingAccount: 'An account required by the instruction is missing',
  ReentrancyNotAllowed: 'Cross-program invocation reentrancy not allowed for this instruction',
  MaxSeedLengthExceeded: 'Length of the seed is too long for address generation',
  InvalidSeeds: 'Provided seeds do not result in a valid address',
  InvalidRealloc: 'Failed to reallocate account data',
  ComputationalBudgetExceeded: 'Computational budget exceeded',
  PrivilegeEscalation: 'Cross-program invocation with unauthorized signer or writable account',
  ProgramEnvironmentSetupFailure: 'Failed to create program execution environment',
  ProgramFailedToComplete: 'Program failed to complete',
  ProgramFailedToCompile: 'Program failed to compile',
  Immutable: 'Account is immutable',
  IncorrectAuthority: 'Incorrect authority provided',
  AccountNotRentExempt: 'An account does not have enough lamports to be rent-exempt',
  InvalidAccountOwner: 'Invalid account owner',
  ArithmeticOverflow: 'Program arithmetic overflowed',
  UnsupportedSysvar: 'Unsupported sysvar',
  IllegalOwner: 'Provided owner is not allowed',
  MaxAccountsDataAllocationsExceeded:
    'Accounts data allocations exceeded the maximum allowed per transaction',
  MaxAccountsExceeded: 'Max accounts exceeded',
  MaxInstructionTraceLengthExceeded: 'Max instruction trace length exceeded',
  BuiltinProgramsMustConsumeComputeUnits: 'Builtin programs must consume compute units',
  BorshIoError: 'Failed to serialize or deserialize account data',
};

function toInstructionErrorJson(error: unknown): InstructionErrorJson {
  if (typeof error === 'number') return INSTRUCTION_ERROR_NAMES[error] ?? 'InvalidError';
  if (typeof error === 'object' && error !== null) {
    if ('code' in error && typeof error.code === 'number') return { Custom: error.code };
    if ('msg' in error && typeof error.msg === 'string') return { BorshIoError: error.msg };
  }
  return 'InvalidError';
}

/** Converts the error object LiteSVM returns (`FailedTransactionMetadata.err()`) to RPC JSON. */
export function toTransactionErrorJson(error: unknown): TransactionErrorJson {
  if (typeof error === 'number') return TRANSACTION_ERROR_NAMES[error] ?? 'SanitizeFailure';
  if (typeof error === 'object' && error !== null) {
    const name = error.constructor.name;
    if ('err' in error && typeof error.err === 'function' && 'index' in error) {
      return { InstructionError: [Number(error.index), toInstructionErrorJson(error.err())] };
    }
    if (name === 'TransactionErrorDuplicateInstruction' && 'index' in error) {
      return { DuplicateInstruction: Number(error.index) };
    }
    if ('accountIndex' in error) {
      const detail = { account_index: Number(error.accountIndex) };
      return name === 'TransactionErrorProgramExecutionTemporarilyRestricted'
        ? { ProgramExecutionTemporarilyRestricted: detail }
        : { InsufficientFundsForRent: detail };
    }
  }
  return 'SanitizeFailure';
}

function describeInstructionError(error: InstructionErrorJson): string {
  if (typeof error === 'string') return INSTRUCTION_ERROR_TEXT[error] ?? error;
  if ('Custom' in error) return `custom program error: 0x${error.Custom.toString(16)}`;
  return `Failed to serialize or deserialize account data: ${error.BorshIoError}`;
}

/**
 * The Display text of a transaction error, as agave formats it.
 *
 * @example
 * describeTransactionError('BlockhashNotFound'); // 'Blockhash not found'
 * describeTransactionError({ InstructionError: [0, { Custom: 1 }] });
 * // 'Error processing Instruction 0: custom program error: 0x1'
 */
export function describeTransactionError(error: TransactionErrorJson): string {
  if (typeof error === 'string') return TRANSACTION_ERROR_TEXT[error] ?? error;
  if ('InstructionError' in error) {
    const [index, inner] = error.InstructionError;
    return `Error processing Instruction ${index}: ${describeInstructionError(inner)}`;
  }
  if ('DuplicateInstruction' in error) {
    return `Transaction contains a duplicate instruction (${error.DuplicateInstruction}) that is not allowed`;
  }
  if ('InsufficientFundsForRent' in error) {
    return `Transaction results in an account (${error.InsufficientFundsForRent.account_index}) with insufficient funds for rent`;
  }
  return `Execution of the program referenced by account at index ${error.ProgramExecutionTemporarilyRestricted.account_index} is temporarily restricted.`;
}
