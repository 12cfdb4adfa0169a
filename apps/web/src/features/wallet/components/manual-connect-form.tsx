import { Eye } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Notice } from '../../../components/ui/notice';
import { Select } from '../../../components/ui/select';
import { MANUAL_CHAINS, validateChainId, validateManualWalletAddress } from '../wallet-sign-in';

const CUSTOM_CHAIN = 'custom';

const CHAIN_OPTIONS = [
  ...MANUAL_CHAINS.map((chain) => ({ value: chain.id, label: `${chain.name} (${chain.id})` })),
  { value: CUSTOM_CHAIN, label: 'Custom chain ID' },
];

/**
 * The watch-only path: an EVM address typed by hand (spec part 1 §5). It proves nothing, so the
 * session it opens can look but never trade.
 */
export function ManualConnectForm({
  onSubmit,
  isPending,
}: {
  onSubmit: (address: string, chainId: string) => Promise<unknown> | void;
  isPending: boolean;
}) {
  const [address, setAddress] = useState('');
  const [chain, setChain] = useState<string>(MANUAL_CHAINS[0]?.id ?? '0x1');
  const [customChainId, setCustomChainId] = useState('');
  const [addressError, setAddressError] = useState<string | null>(null);
  const [chainError, setChainError] = useState<string | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const nextAddressError = validateManualWalletAddress(address);
    const chainId = chain === CUSTOM_CHAIN ? customChainId.trim() : chain;
    const nextChainError = chain === CUSTOM_CHAIN ? validateChainId(chainId) : null;
    setAddressError(nextAddressError);
    setChainError(nextChainError);
    if (nextAddressError || nextChainError) return;
    void onSubmit(address.trim(), chainId);
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <Notice tone="warn" title="Watch-only session">
        A typed address proves nothing, so this session can look at balances and prices but can never trade.
        Sign in with a wallet to trade.
      </Notice>
      <Input
        label="Wallet address"
        name="wallet_address"
        placeholder="0x…"
        autoComplete="off"
        spellCheck={false}
        className="font-mono text-[13px]"
        value={address}
        error={addressError}
        onChange={(event) => {
          setAddress(event.target.value);
          if (addressError) setAddressError(null);
        }}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <Select
          label="Chain"
          name="chain"
          options={CHAIN_OPTIONS}
          value={chain}
          onChange={(event) => {
            setChain(event.target.value);
            setChainError(null);
          }}
        />
        {chain === CUSTOM_CHAIN && (
          <Input
            label="Custom chain ID (hex)"
            name="custom_chain_id"
            placeholder="0xa"
            autoComplete="off"
            spellCheck={false}
            className="font-mono text-[13px]"
            value={customChainId}
            error={chainError}
            onChange={(event) => {
              setCustomChainId(event.target.value);
              if (chainError) setChainError(null);
            }}
          />
        )}
      </div>
      <Button type="submit" isBlock isLoading={isPending}>
        {!isPending && <Eye className="size-4" aria-hidden="true" />}
        Connect watch-only address
      </Button>
    </form>
  );
}
