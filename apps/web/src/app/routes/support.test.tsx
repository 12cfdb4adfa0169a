import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../test/test-utils';
import SupportPage from './support';

/** The accordion's answer panels currently shown. */
const openAnswers = () => document.querySelectorAll('[role="region"][id$="-panel"]');

describe('/support', () => {
  it('opens one FAQ item at a time', async () => {
    renderWithProviders(<SupportPage />);
    const first = screen.getByRole('button', { name: 'How do I create an account?' });
    const second = screen.getByRole('button', { name: 'How do I connect my wallet?' });

    await userEvent.click(first);
    expect(first).toHaveAttribute('aria-expanded', 'true');
    expect(openAnswers()).toHaveLength(1);

    await userEvent.click(second);
    expect(second).toHaveAttribute('aria-expanded', 'true');
    expect(first).toHaveAttribute('aria-expanded', 'false');
    expect(openAnswers()).toHaveLength(1);

    await userEvent.click(second);
    expect(openAnswers()).toHaveLength(0);
  });

  it('answers the first question with the sign-up steps', async () => {
    renderWithProviders(<SupportPage />);
    await userEvent.click(screen.getByRole('button', { name: 'How do I create an account?' }));
    const answer = screen.getByRole('region', { name: 'How do I create an account?' });
    expect(answer).toHaveTextContent(/sign up/i);
    expect(answer).toHaveTextContent(/email/i);
    expect(answer).toHaveTextContent(/password/i);
    expect(answer).toHaveTextContent(/verify/i);
  });

  it('has a Start Chat button', () => {
    renderWithProviders(<SupportPage />);
    expect(screen.getByRole('button', { name: 'Start Chat' })).toBeInTheDocument();
  });
});
