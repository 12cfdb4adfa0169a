import { describe, expect, it } from 'vitest';
import { createModuleEvent, createModuleQuestion } from './module-events';

describe('module events', () => {
  it('awaits every listener in the order they listened before emit resolves', async () => {
    // Given two listeners, the first slower than the second
    const event = createModuleEvent<string>();
    const heard: string[] = [];
    event.on(async (value) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      heard.push(`first:${value}`);
    });
    event.on(async (value) => void heard.push(`second:${value}`));
    // When the event is emitted
    await event.emit('user-1');
    // Then both ran, in turn, before emit resolved
    expect(heard).toEqual(['first:user-1', 'second:user-1']);
  });

  it('answers a question no with no answerer, yes as soon as one answerer says yes', async () => {
    const question = createModuleQuestion<string>();
    expect(await question.ask('user-1')).toBe(false);
    const asked: string[] = [];
    question.answer(async (userId) => {
      asked.push(`no:${userId}`);
      return false;
    });
    question.answer(async (userId) => userId === 'user-1');
    question.answer(async (userId) => {
      asked.push(`late:${userId}`);
      return true;
    });
    expect(await question.ask('user-1')).toBe(true);
    expect(asked).toEqual(['no:user-1']);
    expect(await question.ask('user-2')).toBe(true);
    expect(asked).toEqual(['no:user-1', 'no:user-2', 'late:user-2']);
  });

  it('passes a listener failure to the emitter', async () => {
    const event = createModuleEvent<number>();
    event.on(async () => {
      throw new Error('listener failed');
    });
    await expect(event.emit(1)).rejects.toThrow('listener failed');
  });
});
