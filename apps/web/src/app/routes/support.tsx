import { Clock, MessageCircle, MessagesSquare } from 'lucide-react';
import { Accordion, type AccordionItem } from '../../components/ui/accordion';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';
import { notify } from '../../lib/toast';

const NOT_ANSWERED = (
  <p className="text-faint">
    We have not written this answer yet. Start a chat and our team will help you directly.
  </p>
);

/** The FAQ (spec part 2 §2): only the first answer is written. */
const FAQ_ITEMS: readonly AccordionItem[] = [
  {
    id: 'create-account',
    title: 'How do I create an account?',
    content: (
      <ol className="list-decimal space-y-1 pl-5">
        <li>Click Sign Up on the login page.</li>
        <li>Enter your email address.</li>
        <li>Set a password.</li>
        <li>Verify your email with the link we send you.</li>
      </ol>
    ),
  },
  { id: 'connect-wallet', title: 'How do I connect my wallet?', content: NOT_ANSWERED },
  { id: 'supported-wallets', title: 'Which wallets are supported?', content: NOT_ANSWERED },
  { id: 'bots', title: 'How do trading bots work?', content: NOT_ANSWERED },
  { id: 'delegation', title: 'What is a bot delegation approval?', content: NOT_ANSWERED },
  { id: 'backtest', title: 'How accurate are backtests?', content: NOT_ANSWERED },
  { id: 'futures', title: 'When is a futures position liquidated?', content: NOT_ANSWERED },
  { id: 'earnings', title: 'How do I withdraw my developer earnings?', content: NOT_ANSWERED },
];

/** /support: FAQ accordion (one open at a time) and live chat. */
export default function SupportPage() {
  return (
    <>
      <PageHeader title="Support / FAQ" description="Answers to common questions, or talk to our team." />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <section aria-label="Frequently asked questions">
          <h2 className="mb-2 text-[13px] font-semibold">Frequently asked questions</h2>
          <Accordion items={FAQ_ITEMS} />
        </section>
        <Card className="h-fit p-5">
          <span className="flex size-10 items-center justify-center rounded-lg border border-line bg-raised text-accent">
            <MessagesSquare className="size-5" />
          </span>
          <h2 className="mt-4 text-base font-semibold">Still need help?</h2>
          <p className="mt-1 text-sm text-muted">
            Chat with the support team about your account, wallet connections, bots or an order that did not
            go through.
          </p>
          <p className="mt-3 flex items-center gap-1.5 text-xs text-faint">
            <Clock className="size-3.5" />
            Typical reply within a few minutes
          </p>
          <Button className="mt-5" isBlock onClick={() => notify.info('Live chat is not available yet.')}>
            <MessageCircle className="size-4" />
            Start Chat
          </Button>
        </Card>
      </div>
    </>
  );
}
