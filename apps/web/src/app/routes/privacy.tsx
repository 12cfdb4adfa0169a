import { Link } from 'react-router';
import { DocumentLayout, DocumentSection } from '../../components/layout/document-layout';

/** /privacy: the privacy policy. */
export default function PrivacyPage() {
  return (
    <DocumentLayout
      title="Privacy Policy"
      updated="January 2025"
      intro={
        <p>
          This policy explains what personal data solterm collects when you use the Service, why, and the
          choices you have. We collect only what we need to run your account and execute your trades.
        </p>
      }
    >
      <DocumentSection number={1} title="What we collect">
        <ul>
          <li>
            Account data: username, email address and a salted hash of your password (never the password
            itself).
          </li>
          <li>
            Wallet data: the public addresses you connect and the wallet type. Private keys never reach us.
          </li>
          <li>
            Trading data: your orders, positions, bots, backtests and the on-chain transactions they produce.
          </li>
          <li>
            Technical data: IP address, browser type and request logs, kept for security and troubleshooting.
          </li>
        </ul>
      </DocumentSection>
      <DocumentSection number={2} title="How we use it">
        <ul>
          <li>To create your account, sign you in and keep your session secure.</li>
          <li>To build, submit and record the transactions you ask for, and to run the bots you start.</li>
          <li>To send service emails such as password resets and billing notices.</li>
          <li>To detect abuse, enforce rate limits and meet legal obligations.</li>
        </ul>
        <p>We do not sell your personal data and do not use it for third-party advertising.</p>
      </DocumentSection>
      <DocumentSection number={3} title="Public blockchain data">
        <p>
          Transactions on Solana are public and permanent. Anyone can see the addresses, amounts and programs
          involved in a transaction you sign; we cannot delete or hide this information.
        </p>
      </DocumentSection>
      <DocumentSection number={4} title="Storage in your browser">
        <p>
          The terminal keeps your session token and the address and type of your connected wallet in your
          browser’s local storage so that you stay signed in. Logging out removes them.
        </p>
      </DocumentSection>
      <DocumentSection number={5} title="Service providers">
        <p>
          We share data with providers that help us run the Service — hosting, email delivery, blockchain RPC
          nodes and market data — only as needed for them to do that work, under confidentiality obligations.
        </p>
      </DocumentSection>
      <DocumentSection number={6} title="Retention and your rights">
        <p>
          We keep account data while your account is open and trading records for as long as the law requires.
          You can ask for a copy of your data, correct it, or ask us to delete your account by contacting
          support from the Support page. Depending on where you live you may also have the right to object to
          processing or to complain to a data-protection authority.
        </p>
      </DocumentSection>
      <DocumentSection number={7} title="Changes">
        <p>
          We will post any changes to this policy here and, for material changes, notify you in the Service.
          See also our{' '}
          <Link to="/terms" className="text-accent hover:underline">
            Terms of Service
          </Link>
          .
        </p>
      </DocumentSection>
    </DocumentLayout>
  );
}
