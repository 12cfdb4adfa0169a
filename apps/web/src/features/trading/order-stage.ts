import type { OrderStage } from './submit-order';

/** What the submit button says while an order runs (the wallet step asks the user to act). */
export const ORDER_STAGE_LABELS: Readonly<Record<OrderStage | 'checking', string>> = {
  checking: 'Checking balance…',
  building: 'Building…',
  signing: 'Sign in wallet…',
  executing: 'Executing…',
  recording: 'Recording…',
};
