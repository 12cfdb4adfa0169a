import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '../../test/test-utils';
import OtpVerificationPage from './otp-verification';

const boxes = () => screen.getAllByRole('textbox') as HTMLInputElement[];
let alertSpy: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  alertSpy = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
});
afterEach(() => {
  alertSpy.mockRestore();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('/otp-verification', () => {
  it('says the email holds a link to reset the password, and keeps the code boxes', () => {
    renderWithProviders(<OtpVerificationPage />);
    const notice = screen.getByRole('status', { name: /reset link/i });
    expect(notice).toHaveTextContent(/email contains a link/i);
    expect(notice).toHaveTextContent(/open it to choose a new password/i);
    expect(boxes()).toHaveLength(6);
  });

  it('has six boxes that accept one digit each and move focus forward', () => {
    renderWithProviders(<OtpVerificationPage />);
    expect(boxes()).toHaveLength(6);

    fireEvent.change(boxes()[0]!, { target: { value: '4' } });
    expect(boxes()[0]).toHaveValue('4');
    expect(boxes()[1]).toHaveFocus();

    fireEvent.change(boxes()[1]!, { target: { value: 'x' } });
    expect(boxes()[1]).toHaveValue('');
  });

  it('Backspace on an empty box clears and focuses the previous one', () => {
    renderWithProviders(<OtpVerificationPage />);
    fireEvent.change(boxes()[0]!, { target: { value: '7' } });
    fireEvent.keyDown(boxes()[1]!, { key: 'Backspace' });
    expect(boxes()[0]).toHaveValue('');
    expect(boxes()[0]).toHaveFocus();
  });

  it('pasting a code fills the boxes, digits only', () => {
    renderWithProviders(<OtpVerificationPage />);
    fireEvent.paste(boxes()[0]!, { clipboardData: { getData: () => '12-34 56' } });
    expect(boxes().map((box) => box.value)).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it("Verify with an incomplete code alerts 'Please enter the full 6-digit OTP' and calls nothing", () => {
    const fetchMock = stubFetch({});
    renderWithProviders(<OtpVerificationPage />);
    fireEvent.change(boxes()[0]!, { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(alertSpy).toHaveBeenCalledWith('Please enter the full 6-digit OTP');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('Verify with six digits shows a local alert and calls nothing', () => {
    const fetchMock = stubFetch({});
    renderWithProviders(<OtpVerificationPage />);
    fireEvent.paste(boxes()[0]!, { clipboardData: { getData: () => '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(alertSpy).toHaveBeenCalledTimes(1);
    expect(alertSpy).not.toHaveBeenCalledWith('Please enter the full 6-digit OTP');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('counts the resend time down from 60 s as MM:SS, then offers Resend code', () => {
    vi.useFakeTimers();
    renderWithProviders(<OtpVerificationPage />);
    expect(screen.getByTestId('otp-countdown')).toHaveTextContent('01:00');

    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByTestId('otp-countdown')).toHaveTextContent('00:59');
    act(() => vi.advanceTimersByTime(50_000));
    expect(screen.getByTestId('otp-countdown')).toHaveTextContent('00:09');
    act(() => vi.advanceTimersByTime(9000));

    expect(screen.queryByTestId('otp-countdown')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Resend code' }));
    expect(screen.getByTestId('otp-countdown')).toHaveTextContent('01:00');
  });
});
