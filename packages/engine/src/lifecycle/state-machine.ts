/**
 * A finite state machine as data: for each event, the states it may leave and the state it enters.
 * Lifecycles (tickets, spot orders, later perp orders) are declared with it so an illegal move is a
 * refusal at the one place that decides it, not a string comparison scattered through services.
 */
export type Transitions<State extends string, Event extends string> = {
  readonly [E in Event]: { readonly from: readonly State[]; readonly to: State };
};

export class IllegalTransitionError extends Error {
  constructor(
    readonly machine: string,
    readonly from: string,
    readonly event: string,
  ) {
    super(`${machine}: '${event}' is not allowed from '${from}'`);
    this.name = 'IllegalTransitionError';
  }
}

export interface StateMachine<State extends string, Event extends string> {
  readonly name: string;
  /** The state `event` leads to from `from`. @throws IllegalTransitionError when it is not allowed. */
  next(from: State, event: Event): State;
  /** Whether `event` is allowed from `from`. */
  can(from: State, event: Event): boolean;
  /** The states `event` may leave (a repository's compare-and-set condition). */
  sources(event: Event): readonly State[];
}

export function defineStateMachine<State extends string, Event extends string>(
  name: string,
  transitions: Transitions<State, Event>,
): StateMachine<State, Event> {
  const can = (from: State, event: Event) => transitions[event].from.includes(from);
  return {
    name,
    can,
    next(from, event) {
      if (!can(from, event)) throw new IllegalTransitionError(name, from, event);
      return transitions[event].to;
    },
    sources: (event) => transitions[event].from,
  };
}
