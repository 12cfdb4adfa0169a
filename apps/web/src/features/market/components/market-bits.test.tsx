import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChangeText } from './market-bits';

describe('ChangeText', () => {
  it.each([
    [0, '0.00%'],
    [-0.001, '0.00%'],
    [0.004, '0.00%'],
  ])('shows a change of %s that rounds to zero as a neutral %s, neither green nor red', (value, text) => {
    render(<ChangeText value={value} withIcon />);
    const change = screen.getByText(text);
    expect(change).toHaveClass('text-faint');
    expect(change).not.toHaveClass('text-down');
    expect(change).not.toHaveClass('text-up');
    expect(change.querySelector('svg')).toBeNull();
  });

  it('colours a gain green with a plus and a loss red with a minus', () => {
    render(
      <>
        <ChangeText value={1.234} />
        <ChangeText value={-0.5} />
      </>,
    );
    expect(screen.getByText('+1.23%')).toHaveClass('text-up');
    expect(screen.getByText('-0.50%')).toHaveClass('text-down');
  });
});
