import { Link } from 'react-router';
import { DocumentLayout, DocumentSection } from '../../components/layout/document-layout';

/** /terms: the terms of service. */
export default function TermsPage() {
  return (
    <DocumentLayout
      title="Terms of Service"
      updated="January 2025"
      intro={
        <p>
          These terms govern your use of solterm, a web trading terminal for the Solana blockchain (the
          “Service”). By creating an account, connecting a wallet or otherwise using the Service you agree to
          them. If you do not agree, do not use the Service.
        </p>
      }
    >
      <DocumentSection number={1} title="Eligibility">
        <p>
          You must be at least 18 years old and legally able to enter into a contract. You may not use the
          Service where trading digital assets, derivatives or automated trading is prohibited, or if you are
          subject to sanctions.
        </p>
      </DocumentSection>
      <DocumentSection number={2} title="Your account and wallet">
        <ul>
          <li>
            You are responsible for the accuracy of the information you give us and for keeping your password
            safe.
          </li>
          <li>
            When you sign in with a wallet you prove control of it by signing a one-time message. The Service
            never asks for your seed phrase or private key — never share them with anyone.
          </li>
          <li>An address typed in by hand gives a watch-only session that can view data but cannot trade.</li>
          <li>Tell us promptly if you believe your account has been accessed without your permission.</li>
        </ul>
      </DocumentSection>
      <DocumentSection number={3} title="Trading">
        <p>
          Spot trades and futures deposits are on-chain transactions that you review and sign in your wallet.
          Once a transaction is confirmed on the blockchain it cannot be reversed by us. Quotes, prices and
          charts may be delayed or inaccurate and are provided for information only.
        </p>
        <p>
          Perpetual futures are leveraged products: losses can exceed what you expect, and positions below
          their maintenance margin are liquidated. Trade only with funds you can afford to lose.
        </p>
      </DocumentSection>
      <DocumentSection number={4} title="Bots, backtests and the marketplace">
        <ul>
          <li>
            Bots execute trades automatically with the funds you delegate to them. You can stop a bot or
            revoke its delegation at any time.
          </li>
          <li>
            Backtest results are simulations over historical data and do not predict future performance.
          </li>
          <li>
            Bots published on the marketplace are provided by their creators. We do not endorse them, and
            copying a bot does not make its past results yours.
          </li>
          <li>
            You must not upload code that is malicious, infringes someone else’s rights, or tries to escape
            its sandbox.
          </li>
        </ul>
      </DocumentSection>
      <DocumentSection number={5} title="Subscriptions and fees">
        <p>
          Paid plans are billed in advance for each billing period and renew until cancelled. Network fees and
          trading fees shown at order time are charged when the trade executes. Developer earnings are paid
          out once the minimum withdrawal amount is reached.
        </p>
      </DocumentSection>
      <DocumentSection number={6} title="No investment advice">
        <p>
          Nothing in the Service is financial, investment, legal or tax advice. You alone decide whether a
          trade or strategy is suitable for you.
        </p>
      </DocumentSection>
      <DocumentSection number={7} title="Availability and liability">
        <p>
          The Service is provided “as is”. Blockchains, RPC providers, wallets and market data sources are
          operated by third parties and may fail or be congested. To the extent permitted by law we are not
          liable for losses caused by such failures, by market movements, or by transactions you signed.
        </p>
      </DocumentSection>
      <DocumentSection number={8} title="Changes and termination">
        <p>
          We may update these terms; material changes will be announced in the Service before they take
          effect. We may suspend accounts that break these terms. You may stop using the Service at any time.
          See also our{' '}
          <Link to="/privacy" className="text-accent hover:underline">
            Privacy Policy
          </Link>
          .
        </p>
      </DocumentSection>
    </DocumentLayout>
  );
}
