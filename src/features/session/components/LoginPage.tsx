import {
  Button,
  Card,
  Field,
  Input,
  makeStyles,
  Select,
  Text,
  Spinner,
  Title2,
  tokens,
} from '@fluentui/react-components';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { ApiError } from '../../../lib/api/api-error.ts';
import { useTypedBeforeHydration } from '../../../lib/hooks/use-typed-before-hydration.ts';
import { Page } from '../../../components/Page.tsx';
import { useEarlyAction } from '../../../lib/early-input.ts';
import { safeRedirect } from '../safe-redirect.ts';
import { useSession } from '../session-store.ts';
import { signIn } from '../sign-in.ts';
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

/** The sentence a failed sign-in shows. */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError || error instanceof Error) return error.message || 'Login failed. Please try again.';
  return 'Login failed. Please try again.';
}

export default function LoginPage() {
  const styles = useStyles();
  const setUserType = useSession((s) => s.setUserType);
  const storedType = useSession((s) => s.userType);
  const [, navigate] = useLocation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [userType, setType] = useState<UserType>(storedType ?? DEFAULT_USER_TYPE);
  const [loading, setLoading] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useTypedBeforeHydration(formRef, (typed) => {
    if (typed.username !== undefined) setUsername(typed.username);
    if (typed.password !== undefined) setPassword(typed.password);
    if (isUserType(typed.userType)) setType(typed.userType);
  });
  // Sent before the app had loaded (Enter, or the button): sent now, once.
  useEarlyAction('sign-in', () => formRef.current?.requestSubmit(), 1);
  const [error, setError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);

  // The chosen user type goes to the session whenever the form is idle and error-free.
  useEffect(() => {
    if (!loading && !error && userType) setUserType(userType);
  }, [loading, error, userType, setUserType]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!username.trim() || !password) return;
    setLoading(true);
    setError(null);
    try {
      await signIn(username, password);
      // Where the reader was going (`?next=`, a page that asked them to sign in), if it is on this site.
      navigate(safeRedirect(new URLSearchParams(window.location.search).get('next'), window.location.origin));
    } catch (failure) {
      setError(loginErrorMessage(failure));
    } finally {
      setLoading(false);
    }
  };

  return (
    <Page label="Sign in">
      <Card className={styles.card}>
        <Title2 as="h1">Sign In</Title2>
        {/* POST: a password never goes into a URL. Sent before the app has loaded, it is kept and sent then. */}
        <form ref={formRef} className={styles.form} onSubmit={submit} method="post" noValidate data-early-action="sign-in">
          <noscript>
            <p className={styles.error}>Signing in needs JavaScript. Please turn it on for this site and reload the page.</p>
          </noscript>
          <Field label="Username" required validationMessage={touched && !username.trim() ? 'Username is required' : undefined}>
            <Input name="username" autoComplete="username" value={username} onChange={(_, d) => setUsername(d.value)} />
          </Field>
          <Field label="Password" required validationMessage={touched && !password ? 'Password is required' : undefined}>
            <Input
              name="password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(_, d) => setPassword(d.value)}
            />
          </Field>
          <Field label="User Type" hint="Enthusiast: you read for yourself. Ustaz: you teach others.">
            <Select name="userType" value={userType} onChange={(_, d) => isUserType(d.value) && setType(d.value)}>
              {USER_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </Select>
          </Field>
          {error && (
            <Text as="p" role="alert" className={styles.error}>
              {error}
            </Text>
          )}
          <Button type="submit" appearance="primary" disabled={loading} icon={loading ? <Spinner size="tiny" /> : undefined}>
            Sign In
          </Button>
        </form>
      </Card>
    </Page>
  );
}
