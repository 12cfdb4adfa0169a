import { useRef, useState, type FormEvent } from 'react';
import { Bell, Camera, KeyRound, Plus, UserRound } from 'lucide-react';
import { getDisplayName } from '@solterm/contracts';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardBody, CardFooter, CardHeader } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import { Input } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { Select } from '../../components/ui/select';
import { Table, TBody, Td, Th, THead, Tr } from '../../components/ui/table';
import { useAuth } from '../../features/auth/use-auth';
import { notify } from '../../lib/toast';

const COUNTRIES = [
  { value: 'USA', label: 'USA' },
  { value: 'Pakistan', label: 'Pakistan' },
  { value: 'UK', label: 'UK' },
];

type Permission = 'Read-only' | 'Write-only';
const PERMISSIONS = [
  { value: 'Read-only', label: 'Read-only' },
  { value: 'Write-only', label: 'Write-only' },
];

interface ApiKey {
  label: string;
  permission: Permission;
  created: string;
}

const SAMPLE_KEYS: readonly ApiKey[] = [
  { label: 'Portfolio tracker', permission: 'Read-only', created: '2024-12-12' },
  { label: 'Signal webhook', permission: 'Write-only', created: '2024-11-03' },
];

const NOTIFICATION_OPTIONS = [
  { id: 'tradeAlerts', label: 'Trade alerts via email' },
  { id: 'weeklySummary', label: 'Weekly performance summary' },
  { id: 'billing', label: 'Billing and payment updates' },
  { id: 'newBots', label: 'New bot listing notifications' },
] as const;

type NotificationId = (typeof NOTIFICATION_OPTIONS)[number]['id'];

function ProfileCard() {
  const { user } = useAuth();
  const [photoUrl, setPhotoUrl] = useState<string | null>(null);
  const [country, setCountry] = useState('USA');
  const fileInput = useRef<HTMLInputElement>(null);
  const name = getDisplayName(user);

  return (
    <Card>
      <CardHeader title="Profile" icon={<UserRound className="size-4" />} />
      <CardBody className="space-y-5">
        <div className="flex items-center gap-4">
          {photoUrl ? (
            <img
              src={photoUrl}
              alt="Profile"
              className="size-16 rounded-full object-cover ring-1 ring-line"
            />
          ) : (
            <span className="flex size-16 items-center justify-center rounded-full bg-gradient-to-br from-accent to-up/70 text-xl font-semibold text-white">
              {name.charAt(0).toUpperCase()}
            </span>
          )}
          <div>
            <input
              ref={fileInput}
              type="file"
              accept="image/*"
              className="sr-only"
              aria-label="Profile photo file"
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file) setPhotoUrl(URL.createObjectURL(file));
              }}
            />
            <Button variant="secondary" size="sm" onClick={() => fileInput.current?.click()}>
              <Camera className="size-4" />
              Upload photo
            </Button>
            <p className="mt-1.5 text-xs text-faint">JPG or PNG, up to 2 MB.</p>
          </div>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Input label="Name" value={user?.username ?? ''} readOnly />
          <Input label="Email" value={user?.email ?? ''} placeholder="No email on this account" readOnly />
          <Select
            label="Country"
            options={COUNTRIES}
            value={country}
            onChange={(event) => setCountry(event.target.value)}
            containerClassName="sm:col-span-2"
          />
        </div>
      </CardBody>
    </Card>
  );
}

function ApiKeysCard() {
  const [keys, setKeys] = useState<ApiKey[]>([...SAMPLE_KEYS]);
  const [label, setLabel] = useState('');
  const [permission, setPermission] = useState<Permission>('Read-only');

  function onCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = label.trim();
    if (!trimmed) return;
    setKeys((current) => [
      { label: trimmed, permission, created: new Date().toISOString().slice(0, 10) },
      ...current,
    ]);
    setLabel('');
    notify.success(`API key “${trimmed}” created.`);
  }

  return (
    <Card>
      <CardHeader
        title="API keys"
        icon={<KeyRound className="size-4" />}
        description="Keys let your own tools read data or send signals."
      />
      <Table>
        <THead>
          <tr>
            <Th>Label</Th>
            <Th>Permissions</Th>
            <Th>Created</Th>
          </tr>
        </THead>
        <TBody>
          {keys.map((key) => (
            <Tr key={`${key.label}-${key.created}`}>
              <Td className="font-medium">{key.label}</Td>
              <Td>
                <Badge tone={key.permission === 'Read-only' ? 'info' : 'warn'}>{key.permission}</Badge>
              </Td>
              <Td className="num text-muted">{key.created}</Td>
            </Tr>
          ))}
        </TBody>
      </Table>
      <form
        onSubmit={onCreate}
        aria-label="Create API key"
        className="grid grid-cols-1 gap-3 border-t border-line p-4 sm:grid-cols-[minmax(0,1fr)_160px_auto] sm:items-end"
      >
        <Input
          label="Key name"
          placeholder="e.g. Trading journal"
          value={label}
          onChange={(event) => setLabel(event.target.value)}
          required
        />
        <Select
          label="Permission"
          options={PERMISSIONS}
          value={permission}
          onChange={(event) => setPermission(event.target.value as Permission)}
        />
        <Button type="submit">
          <Plus className="size-4" />
          Create key
        </Button>
      </form>
    </Card>
  );
}

function NotificationsCard() {
  const [preferences, setPreferences] = useState<Record<NotificationId, boolean>>({
    tradeAlerts: true,
    weeklySummary: true,
    billing: true,
    newBots: false,
  });
  return (
    <Card>
      <CardHeader title="Notification preferences" icon={<Bell className="size-4" />} />
      <CardBody className="space-y-3">
        {NOTIFICATION_OPTIONS.map((option) => (
          <div key={option.id}>
            <Checkbox
              label={option.label}
              checked={preferences[option.id]}
              onChange={(event) =>
                setPreferences((current) => ({ ...current, [option.id]: event.target.checked }))
              }
            />
          </div>
        ))}
      </CardBody>
      <CardFooter className="justify-end">
        <Button onClick={() => notify.success('Notification preferences saved.')}>Save</Button>
      </CardFooter>
    </Card>
  );
}

/** /dashboardd: profile settings (static mock, no calls). */
export default function ProfileMockPage() {
  return (
    <>
      <PageHeader title="Profile" description="Your personal details, API keys and notification settings." />
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
        <div className="space-y-4">
          <ProfileCard />
          <NotificationsCard />
        </div>
        <ApiKeysCard />
      </div>
    </>
  );
}
