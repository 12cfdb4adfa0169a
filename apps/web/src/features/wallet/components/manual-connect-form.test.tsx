import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ManualConnectForm } from './manual-connect-form';

const VALID = '0x52908400098527886E0F7030069857D2E4169EE7';

function setup() {
  const onSubmit = vi.fn();
  render(<ManualConnectForm onSubmit={onSubmit} isPending={false} />);
  return {
    onSubmit,
    user: userEvent.setup(),
    address: screen.getByLabelText('Wallet address'),
    submit: screen.getByRole('button', { name: 'Connect watch-only address' }),
  };
}

describe('ManualConnectForm', () => {
  it('says the session is watch-only', () => {
    setup();
    expect(screen.getByText('Watch-only session')).toBeInTheDocument();
    expect(screen.getByText(/can never trade/)).toBeInTheDocument();
  });

  it('asks for an address when empty', async () => {
    const { user, submit, onSubmit, address } = setup();
    await user.click(submit);
    expect(screen.getByText('Please enter a wallet address')).toBeInTheDocument();
    expect(address).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses anything but 0x + 40 hex characters', async () => {
    const { user, submit, onSubmit, address } = setup();
    await user.type(address, '0x1234');
    await user.click(submit);
    expect(screen.getByText('Please enter a valid Ethereum wallet address')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(address, 'x');
    expect(screen.queryByText('Please enter a valid Ethereum wallet address')).not.toBeInTheDocument();
  });

  it('offers the spec chain list and submits the chosen chain id', async () => {
    const { user, submit, onSubmit, address } = setup();
    const chain = screen.getByLabelText('Chain');
    expect([...(chain as HTMLSelectElement).options].map((option) => option.value)).toEqual([
      '0x1',
      '0x89',
      '0xa4b1',
      '0x38',
      '0x2105',
      'custom',
    ]);
    await user.type(address, VALID);
    await user.selectOptions(chain, '0x2105');
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledWith(VALID, '0x2105');
  });

  it('accepts a custom hex chain id and refuses a decimal one', async () => {
    const { user, submit, onSubmit, address } = setup();
    await user.type(address, VALID);
    await user.selectOptions(screen.getByLabelText('Chain'), 'custom');
    const custom = screen.getByLabelText('Custom chain ID (hex)');
    await user.type(custom, '10');
    await user.click(submit);
    expect(screen.getByText('Chain id must be a hex number such as 0x1')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();

    await user.clear(custom);
    await user.type(custom, '0xa');
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledWith(VALID, '0xa');
  });
});
