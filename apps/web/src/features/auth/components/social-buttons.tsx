import { Button } from '../../../components/ui/button';

function GoogleGlyph() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-4">
      <path
        fill="#EA4335"
        d="M12 10.2v3.9h5.5c-.24 1.26-1.7 3.7-5.5 3.7-3.3 0-6-2.74-6-6.1s2.7-6.1 6-6.1c1.88 0 3.14.8 3.86 1.49l2.63-2.54C16.8 2.98 14.6 2 12 2 6.98 2 2.9 6.08 2.9 11.1S6.98 20.2 12 20.2c5.25 0 8.73-3.69 8.73-8.88 0-.6-.07-1.05-.15-1.5H12z"
      />
    </svg>
  );
}

function GithubGlyph() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-4 fill-current">
      <path d="M12 2a10 10 0 0 0-3.16 19.49c.5.09.68-.22.68-.48v-1.7c-2.78.6-3.37-1.34-3.37-1.34-.45-1.16-1.1-1.46-1.1-1.46-.91-.62.07-.61.07-.61 1 .07 1.53 1.03 1.53 1.03.9 1.52 2.34 1.08 2.91.83.09-.65.35-1.09.63-1.34-2.22-.25-4.55-1.11-4.55-4.94 0-1.09.39-1.98 1.03-2.68-.1-.25-.45-1.27.1-2.65 0 0 .84-.27 2.75 1.02a9.5 9.5 0 0 1 5 0c1.91-1.3 2.75-1.02 2.75-1.02.55 1.38.2 2.4.1 2.65.64.7 1.03 1.59 1.03 2.68 0 3.84-2.34 4.69-4.57 4.94.36.31.68.92.68 1.85v2.74c0 .27.18.58.69.48A10 10 0 0 0 12 2z" />
    </svg>
  );
}

function XGlyph() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-3.5 fill-current">
      <path d="M17.75 3h3.07l-6.7 7.66L22 21h-6.17l-4.83-6.32L5.47 21H2.4l7.17-8.2L2 3h6.33l4.37 5.77L17.75 3zm-1.08 16.2h1.7L7.4 4.73H5.58L16.67 19.2z" />
    </svg>
  );
}

const PROVIDERS = [
  { name: 'Google', glyph: <GoogleGlyph /> },
  { name: 'GitHub', glyph: <GithubGlyph /> },
  { name: 'X', glyph: <XGlyph /> },
];

/** Social sign-in buttons. Shown as in the spec; they do nothing (no provider is wired up). */
export function SocialButtons() {
  return (
    <div className="grid grid-cols-3 gap-2">
      {PROVIDERS.map(({ name, glyph }) => (
        <Button
          key={name}
          variant="secondary"
          size="md"
          aria-label={`Continue with ${name}`}
          title={`${name} sign-in is not available`}
        >
          {glyph}
          <span className="hidden sm:inline">{name}</span>
        </Button>
      ))}
    </div>
  );
}
