import { Button, Card, Field, Input, Link, makeStyles, Select, Spinner, Text, Title2, tokens } from '@fluentui/react-components';
import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useParams } from 'wouter';
import { ApiError } from '../../../lib/api/api-error.ts';
import { Page } from '../../../components/Page.tsx';
import { acceptInvitation, requestInvitationCheck } from '../invitation-api.ts';
import { useSession } from '../session-store.ts';
import { DEFAULT_USER_TYPE, isUserType, USER_TYPES, type UserType } from '../user-type.ts';

const useStyles = makeStyles({
  card: { maxWidth: '420px', width: '100%', margin: '0 auto', padding: tokens.spacingHorizontalXL },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  error: {
    color: tokens.colorPaletteRedForeground1,
    backgroundColor: tokens.colorPaletteRedBackground1,
    border: `1px solid ${tokens.colorPaletteRedBorder1}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
  },
});

/** Under these statuses the invitation itself cannot be used (unknown, expired, used, withdrawn): no form is worth showing. */
const DEAD_INVITATION = [404, 410];
const PASSWORD_MIN = 8;

type Invitation = { state: 'checking' } | { state: 'dead'; message: string } | { state: 'open'; fixedType: UserType | null };

function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/** `/invite/:token`: the reader an operator invited (npm run users -- invite) chooses a name and password, and is signed in. */
export default function InvitePage() {
  const styles = useStyles();
  const { token = '' } = useParams<{ token: string }>();
  const storedType = useSession((s) => s.userType);
  const [, navigate] = useLocation();
  const [invitation, setInvitation] = useState<Invitation>({ state: 'checking' });
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [userType, setType] = useState<UserType>(storedType ?? DEFAULT_USER_TYPE);
  const [touched, setTouched] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    requestInvitationCheck(token).then(
      (reply) => current && setInvitation({ state: 'open', fixedType: reply.user_type }),
      (failure: unknown) => {
        if (!current) return;
        // Only a refusal of the invitation ends it here; no answer leaves the form, which says so on sending.
        if (failure instanceof ApiError && DEAD_INVITATION.includes(failure.status)) setInvitation({ state: 'dead', message: failure.message });
        else setInvitation({ state: 'open', fixedType: null });
      },
    );
    return () => {
      current = false;
    };
  }, [token]);

  const nameProblem = !username.trim() ? 'Choose a username' : undefined;
  const passwordProblem = [...password].length < PASSWORD_MIN ? `A password has at least ${PASSWORD_MIN} characters` : undefined;
  const confirmProblem = confirm !== password ? 'The two passwords are not the same' : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (nameProblem || passwordProblem || confirmProblem || invitation.state !== 'open') return;
    setLoading(true);
    setError(null);
    try {
      await acceptInvitation({ token, username, password, userType: invitation.fixedType ?? userType });
      navigate('/dashboard');
    } catch (failure) {
      if (failure instanceof ApiError && DEAD_INVITATION.includes(failure.status)) setInvitation({ state: 'dead', message: failure.message });
      else setError(messageOf(failure, 'Your account could not be made. Please try again.'));
    } finally {
      setLoading(false);
    }
  };

  return (
    <Page label="Create your account">
      <Card className={styles.card}>
        <Title2 as="h1">Create your account</Title2>
        {invitation.state === 'checking' && <Spinner size="small" label="Checking your invitation…" />}
        {invitation.state === 'dead' && (
          <>
            <Text as="p" role="alert" className={styles.error}>
              {invitation.message}
            </Text>
            <Text as="p">
              Already have an account?{' '}
              <RouterLink href="/login" asChild>
                <Link>Sign in</Link>
              </RouterLink>
            </Text>
          </>
        )}
        {invitation.state === 'open' && (
          <form className={styles.form} onSubmit={submit} method="post" noValidate>
            <Text as="p">You have been invited to search The Alchemy of Happiness. Choose the name and password you will sign in with.</Text>
            <Field
              label="Username"
              required
              hint="Letters, digits, dots, dashes or underscores."
              validationMessage={touched ? nameProblem : undefined}
            >
              <Input name="username" autoComplete="username" value={username} onChange={(_, d) => setUsername(d.value)} />
            </Field>
            <Field label="Password" required hint={`At least ${PASSWORD_MIN} characters.`} validationMessage={touched ? passwordProblem : undefined}>
              <Input name="password" type="password" autoComplete="new-password" value={password} onChange={(_, d) => setPassword(d.value)} />
            </Field>
            <Field label="Confirm password" required validationMessage={touched ? confirmProblem : undefined}>
              <Input name="confirm" type="password" autoComplete="new-password" value={confirm} onChange={(_, d) => setConfirm(d.value)} />
            </Field>
            {invitation.fixedType ? (
              <Text as="p">You are invited as an {invitation.fixedType}.</Text>
            ) : (
              <Field label="User Type">
                <Select name="userType" value={userType} onChange={(_, d) => isUserType(d.value) && setType(d.value)}>
                  {USER_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {type}
                    </option>
                  ))}
                </Select>
              </Field>
            )}
            {error && (
              <Text as="p" role="alert" className={styles.error}>
                {error}
              </Text>
            )}
            <Button type="submit" appearance="primary" disabled={loading} icon={loading ? <Spinner size="tiny" /> : undefined}>
              Create account and sign in
            </Button>
          </form>
        )}
      </Card>
    </Page>
  );
}
