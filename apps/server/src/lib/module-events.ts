/**
 * An in-process event a module announces and modules created after it listen to (the way a lower
 * module hears from a higher one without importing it). `emit` awaits each listener in turn, so the
 * announcer knows its listeners are done (a revoked delegation's runs have stopped).
 */
export interface ModuleEvent<T> {
  on(listener: (value: T) => Promise<void>): void;
  emit(value: T): Promise<void>;
}

export function createModuleEvent<T>(): ModuleEvent<T> {
  const listeners: ((value: T) => Promise<void>)[] = [];
  return {
    on: (listener) => void listeners.push(listener),
    async emit(value) {
      for (const listener of listeners) await listener(value);
    },
  };
}

/**
 * A yes/no question a module asks and modules created after it answer (auth asks whether a user holds
 * funds elsewhere before a wallet change): `ask` is true as soon as one answer is, false with none.
 */
export interface ModuleQuestion<T> {
  answer(answerer: (value: T) => Promise<boolean>): void;
  ask(value: T): Promise<boolean>;
}

export function createModuleQuestion<T>(): ModuleQuestion<T> {
  const answerers: ((value: T) => Promise<boolean>)[] = [];
  return {
    answer: (answerer) => void answerers.push(answerer),
    async ask(value) {
      for (const answerer of answerers) if (await answerer(value)) return true;
      return false;
    },
  };
}
