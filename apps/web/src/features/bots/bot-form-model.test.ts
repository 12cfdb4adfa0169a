import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { JAVASCRIPT_TEMPLATES, PYTHON_TEMPLATES } from '@solterm/engine';
import { DEFAULT_BOT_CONFIG, type TBot } from '@solterm/contracts';
import { applyUpload, botRequestOf, formValuesOf, INITIAL_BOT_FORM, switchLanguage } from './bot-form-model';

describe('the create-bot form', () => {
  it('sends the spec defaults for a built-in strategy', () => {
    const built = botRequestOf({ ...INITIAL_BOT_FORM, name: 'SMA' });
    expect(built).toEqual({
      ok: true,
      request: {
        name: 'SMA',
        description: '',
        strategy_type: 'sma_crossover',
        is_public: false,
        config: {
          code: '',
          language: 'javascript',
          symbol: 'SOL/USDC',
          interval: '1H',
          amount: 0.0001,
          // A new bot spends 10 % of its equity a buy.
          sizing: { mode: 'percent_equity', value: 10 },
          stop_loss_percentage: 2,
          take_profit_percentage: 3,
          max_positions: 1,
          parameters: { short_window: 5, long_window: 20 },
          run_hours: 24,
        },
      },
    });
  });

  it('sends the code and the declared category for a code bot', () => {
    const built = botRequestOf({
      ...INITIAL_BOT_FORM,
      source: 'code',
      category: 'scalper',
      code: 'function onCandle() {}',
    });
    expect(built.ok && built.request.strategy_type).toBe('scalper');
    expect(built.ok && built.request.config?.code).toBe('function onCandle() {}');
    expect(botRequestOf({ ...INITIAL_BOT_FORM, source: 'code', code: ' ' })).toEqual({
      ok: false,
      error: 'Write or upload the strategy code first',
    });
    expect(botRequestOf({ ...INITIAL_BOT_FORM, amount: '0' })).toEqual({
      ok: false,
      error: 'Amount must be greater than 0',
    });
  });

  it('reads .js and .py files into the editor and a .json bot into the fields', () => {
    const js = applyUpload(INITIAL_BOT_FORM, { name: 'mine.JS', text: JAVASCRIPT_TEMPLATES.dca });
    expect(js.ok && [js.values.source, js.values.language, js.values.code]).toEqual([
      'code',
      'javascript',
      JAVASCRIPT_TEMPLATES.dca,
    ]);
    const py = applyUpload(INITIAL_BOT_FORM, {
      name: 'bot.py',
      text: 'def on_candle(c, ctx):\n    return None\n',
    });
    expect(py.ok && py.values.language).toBe('python');
    const json = applyUpload(INITIAL_BOT_FORM, {
      name: 'bot.json',
      text: JSON.stringify({
        name: 'RSI',
        strategy_type: 'rsi_reversion',
        config: { amount: 2, parameters: { rsi_period: 10 } },
      }),
    });
    expect(json.ok && json.values).toMatchObject({
      source: 'builtin',
      strategyType: 'rsi_reversion',
      name: 'RSI',
      amount: '2',
      parameters: { rsi_period: '10' },
    });
    expect(applyUpload(INITIAL_BOT_FORM, { name: 'x.json', text: '{' })).toEqual({
      ok: false,
      error: 'The .json file is not valid JSON',
    });
    expect(applyUpload(INITIAL_BOT_FORM, { name: 'x.json', text: '[]' }).ok).toBe(false);
    expect(applyUpload(INITIAL_BOT_FORM, { name: 'x.zip', text: '', bytes: strToU8('PK') })).toEqual({
      ok: false,
      error: 'The .zip file could not be read',
    });
    const zipped = zipSync({ 'bot/main.py': strToU8('def on_candle(c, ctx):\n    return None\n') });
    expect(applyUpload(INITIAL_BOT_FORM, { name: 'Bot.ZIP', text: '', bytes: zipped })).toMatchObject({
      ok: true,
      values: { source: 'code', language: 'python', code: 'def on_candle(c, ctx):\n    return None\n' },
    });
    expect(applyUpload(INITIAL_BOT_FORM, { name: 'x.exe', text: '' }).ok).toBe(false);
    expect(applyUpload(INITIAL_BOT_FORM, { name: 'big.js', text: 'x'.repeat(200_001) }).ok).toBe(false);
  });

  it('switching language swaps an untouched template for its twin and keeps edited code', () => {
    const form = { ...INITIAL_BOT_FORM, source: 'code' as const, code: JAVASCRIPT_TEMPLATES.grid };
    expect(switchLanguage(form, 'python')).toEqual({ language: 'python', code: PYTHON_TEMPLATES.grid });
    const edited = { ...form, code: `${JAVASCRIPT_TEMPLATES.grid}// mine\n` };
    expect(switchLanguage(edited, 'python')).toEqual({ language: 'python', code: edited.code });
  });

  it('fills the form with a saved bot to edit it, and sends back what it was (code and settings)', () => {
    const bot = {
      bot_id: 'b1',
      bot_name: 'My Python',
      description: 'RSI dips',
      strategy_type: 'mean_reversion',
      is_public: true,
      config: {
        ...DEFAULT_BOT_CONFIG,
        code: PYTHON_TEMPLATES.rsi_reversion ?? 'def on_candle(c, ctx):\n    return None\n',
        language: 'python',
        symbol: 'BONK/SOL',
        interval: '15M',
        amount: 2.5,
        stop_loss_percentage: null,
        take_profit_percentage: 7,
        max_positions: 3,
        parameters: { period: 14 },
        run_hours: 48,
      },
    } as unknown as TBot;
    const values = formValuesOf(bot);
    expect(values).toMatchObject({
      source: 'code',
      language: 'python',
      category: 'mean_reversion',
      name: 'My Python',
      stopLoss: '',
      takeProfit: '7',
      runHours: 48,
    });
    const built = botRequestOf(values);
    expect(built.ok && built.request).toEqual({
      name: 'My Python',
      description: 'RSI dips',
      strategy_type: 'mean_reversion',
      is_public: true,
      // A bot saved before sizing existed keeps trading its amount.
      config: { ...bot.config, sizing: { mode: 'fixed_base', value: 2.5 } },
    });
    const sized = formValuesOf({
      ...bot,
      config: { ...bot.config, sizing: { mode: 'fixed_quote', value: 50 } },
    } as TBot);
    expect([sized.sizingMode, sized.sizingValue]).toEqual(['fixed_quote', '50']);
    expect(botRequestOf({ ...sized, sizingValue: '0' })).toEqual({
      ok: false,
      error: 'Size per trade must be greater than 0',
    });
    expect(botRequestOf({ ...sized, sizingMode: 'percent_equity', sizingValue: '150' })).toEqual({
      ok: false,
      error: 'Percent of equity must be at most 100',
    });
    const builtIn = formValuesOf({
      ...bot,
      strategy_type: 'sma_crossover',
      config: { ...bot.config, code: '' },
    } as TBot);
    expect([builtIn.source, builtIn.strategyType]).toEqual(['builtin', 'sma_crossover']);
  });
});
