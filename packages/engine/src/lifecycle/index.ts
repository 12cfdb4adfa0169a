// Lifecycles as typed state machines, shared by spot orders now and perp orders later.
export * from './state-machine';
export * from './ticket-lifecycle';
export * from './order-lifecycle';
