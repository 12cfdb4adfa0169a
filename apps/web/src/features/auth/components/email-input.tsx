import type { ComponentProps } from 'react';
import { Mail } from 'lucide-react';
import { Input } from '../../../components/ui/input';

/** The email field of the login, sign-up and forgot-password forms. */
export function EmailInput(props: Omit<ComponentProps<typeof Input>, 'label' | 'type' | 'leading'>) {
  return (
    <Input
      label="Email"
      type="email"
      name="email"
      autoComplete="email"
      placeholder="you@example.com"
      leading={<Mail className="size-4" />}
      required
      {...props}
    />
  );
}
