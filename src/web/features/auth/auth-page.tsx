import { ArrowLeftIcon, BrainCircuitIcon, MicIcon, UsersIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { installation } from '#web/lib/config.ts';
import { SELF_HOSTED_MESSAGES } from '#web/components/self-hosted-note.tsx';
import { MAIN_CONTENT_ID } from '#web/components/layout/skip-link.tsx';
import { Logo } from '#web/components/logo.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { FormError } from '#web/components/ui/form-error.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { AUTH_MESSAGES, MIN_PASSWORD_LENGTH, mfaErrorMessage, signInErrorMessage, signUpErrorMessage } from '#web/lib/auth/auth-messages.ts';
import { peekReturnTo } from '#web/lib/auth/return-to.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { paths } from '#web/app/paths.ts';
import { ForgotPasswordForm } from './forgot-password-form.tsx';

/**
 * Every message of this page is one toast, replaced by the next: a failed attempt's error does not
 * stay on screen beside "Welcome back!" and follow the person to the dashboard.
 */
const FEEDBACK = { id: 'auth-feedback' } as const;

const BLURBS = [
  { icon: MicIcon, title: 'Record', text: 'Capture meetings right in your browser or upload a recording.' },
  { icon: UsersIcon, title: 'Transcribe', text: 'Instant transcripts that know who said what.' },
  { icon: BrainCircuitIcon, title: 'Understand', text: 'Key points, action items and decisions, ready to share.' },
];

/** The dashboard, or the page that sent the person here to sign in first (an invitation, which forgets it once it is reached). */
const afterSignIn = (): string => peekReturnTo() ?? paths.dashboard.href();

/**
 * /auth: sign in and sign up (spec §2, §5, §8). A signed-in visitor goes straight to the dashboard,
 * unless the account has two-factor verification and this session has not passed it yet: then the
 * page asks for the authenticator code instead (the server opens nothing else until then).
 */
export function AuthPage() {
  const { user, loading, mfaRequired } = useAuth();
  // ?tab=signup (Get Started, Start your free trial) opens on Sign Up; switching tabs keeps the URL in step.
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'signup' ? 'signup' : 'signin';
  // ?email= (an invitation's address): both forms start with it, whichever tab is open.
  const email = params.get('email')?.slice(0, 320) ?? '';
  if (!loading && user && !mfaRequired) return <Navigate to={afterSignIn()} replace />;
  return (
    <div className="flex min-h-svh flex-col bg-gradient-to-b from-accent/60 to-background">
      <header className="mx-auto flex w-full max-w-5xl items-center px-4 py-4">
        <Button variant="ghost" size="sm" asChild>
          <Link to={paths.home.href()}>
            <ArrowLeftIcon />
            Back to Home
          </Link>
        </Button>
      </header>
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="mx-auto flex w-full max-w-md flex-1 flex-col items-center px-4 pb-12 outline-none">
        <Logo size="lg" className="mb-2" />
        <p className="mb-6 text-center text-muted-foreground">Your voice meeting assistant</p>
        <Card className="w-full">
          {user && mfaRequired ? (
            <CardContent>
              <MfaChallengeForm />
            </CardContent>
          ) : (
            <Tabs
              value={tab}
              onValueChange={(value) => setParams({ ...(value === 'signup' ? { tab: 'signup' } : {}), ...(email ? { email } : {}) }, { replace: true })}
              className="gap-0"
            >
              <CardHeader className="pb-4">
                <TabsList className="grid w-full grid-cols-2">
                  <TabsTrigger value="signin">Sign In</TabsTrigger>
                  <TabsTrigger value="signup">Sign Up</TabsTrigger>
                </TabsList>
              </CardHeader>
              <CardContent>
                <TabsContent value="signin">
                  <SignInPanel initialEmail={email} />
                </TabsContent>
                <TabsContent value="signup">
                  <SignUpForm initialEmail={email} />
                </TabsContent>
              </CardContent>
            </Tabs>
          )}
        </Card>
        <ul className="mt-8 grid w-full gap-4 sm:grid-cols-3">
          {BLURBS.map(({ icon: Icon, title, text }) => (
            <li key={title} className="text-center">
              <Icon className="mx-auto mb-2 size-6 text-primary" aria-hidden="true" />
              <p className="font-medium">{title}</p>
              <p className="text-sm text-muted-foreground">{text}</p>
            </li>
          ))}
        </ul>
      </main>
    </div>
  );
}

/** The Sign In tab: the form, or "Forgot password?"'s request for a reset link in its place. */
function SignInPanel({ initialEmail }: { initialEmail: string }) {
  const [forgotEmail, setForgotEmail] = useState<string | null>(null);
  if (forgotEmail !== null) return <ForgotPasswordForm initialEmail={forgotEmail} onBack={() => setForgotEmail(null)} />;
  return <SignInForm initialEmail={initialEmail} onForgotPassword={setForgotEmail} />;
}

function SignInForm({ initialEmail, onForgotPassword }: { initialEmail: string; onForgotPassword: (email: string) => void }) {
  const { signIn } = useAuth();
  const [email, setEmail] = useState(initialEmail);
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const { error: failure, mfaRequired } = await signIn({ email: String(form.get('email')), password: String(form.get('password')) });
    // With two-factor verification on, the page swaps this form for the code prompt once the session arrives.
    if (mfaRequired) return;
    setBusy(false);
    if (failure) {
      const message = signInErrorMessage(failure.message);
      setError(message);
      toast.error(message, FEEDBACK);
      return;
    }
    toast.success(AUTH_MESSAGES.welcomeBack, FEEDBACK);
    void navigate(afterSignIn());
  };

  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate={false}>
      <CardTitle className="sr-only">Sign In</CardTitle>
      <CardDescription>Welcome back. Sign in to your meetings.</CardDescription>
      <div className="grid gap-2">
        <Label htmlFor="signin-email">Email</Label>
        <Input
          id="signin-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          disabled={busy}
          placeholder="you@company.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </div>
      <div className="grid gap-2">
        <div className="flex items-center justify-between">
          <Label htmlFor="signin-password">Password</Label>
          <Button type="button" variant="link" size="sm" className="h-auto p-0" disabled={busy} onClick={() => onForgotPassword(email.trim())}>
            Forgot password?
          </Button>
        </div>
        <Input id="signin-password" name="password" type="password" autoComplete="current-password" required disabled={busy} />
      </div>
      <FormError>{error}</FormError>
      <Button type="submit" disabled={busy} className="w-full">
        {busy ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}

/**
 * The MFA challenge after a password sign-in (or a recovery link): a 6-digit code from the
 * authenticator app, or sign out. Then the dashboard, unless `onVerified` says otherwise.
 */
export function MfaChallengeForm({ onVerified }: { onVerified?: () => void }) {
  const { verifyMfa, signOut } = useAuth();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code')).replace(/\s+/g, '');
    setBusy(true);
    setError(null);
    const { error: failure } = await verifyMfa(code);
    setBusy(false);
    if (failure) {
      const message = mfaErrorMessage(failure.message);
      setError(message);
      toast.error(message, FEEDBACK);
      return;
    }
    if (onVerified) return onVerified();
    toast.success(AUTH_MESSAGES.welcomeBack, FEEDBACK);
    void navigate(afterSignIn());
  };

  return (
    <form onSubmit={onSubmit} className="grid gap-4 pt-6">
      <CardTitle>Two-factor verification</CardTitle>
      <CardDescription>Enter the 6-digit code from your authenticator app.</CardDescription>
      <div className="grid gap-2">
        <Label htmlFor="mfa-code">Authentication code</Label>
        <Input
          id="mfa-code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 ]{6,7}"
          maxLength={7}
          required
          autoFocus
          disabled={busy}
          placeholder="123456"
        />
      </div>
      <FormError>{error}</FormError>
      <Button type="submit" disabled={busy} className="w-full">
        {busy ? 'Verifying...' : 'Verify'}
      </Button>
      <Button type="button" variant="ghost" disabled={busy} onClick={() => void signOut()}>
        Sign out
      </Button>
    </form>
  );
}

function SignUpForm({ initialEmail }: { initialEmail: string }) {
  const { signUp } = useAuth();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password'));
    if (password.length < MIN_PASSWORD_LENGTH) {
      // Checked here so that nothing is sent (spec §5).
      setError(AUTH_MESSAGES.passwordTooShort);
      toast.error(AUTH_MESSAGES.passwordTooShort, FEEDBACK);
      return;
    }
    setBusy(true);
    setError(null);
    const { error: failure, session } = await signUp({
      email: String(form.get('email')),
      password,
      fullName: String(form.get('fullName')).trim(),
    });
    setBusy(false);
    if (failure) {
      const message = signUpErrorMessage(failure.message);
      setError(message);
      toast.error(message, FEEDBACK);
      return;
    }
    if (session) {
      // This server confirmed the account at once (no email service configured): straight in, with no email to check.
      toast.success(AUTH_MESSAGES.accountReady, FEEDBACK);
      void navigate(afterSignIn());
    } else {
      toast.success(AUTH_MESSAGES.accountCreated, FEEDBACK);
    }
  };

  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      <CardTitle className="sr-only">Sign Up</CardTitle>
      <CardDescription>
        Create your account. Free 14-day trial, no credit card.{!installation().billing && ` ${SELF_HOSTED_MESSAGES.statement}`}
      </CardDescription>
      <div className="grid gap-2">
        <Label htmlFor="signup-name">Full Name</Label>
        <Input id="signup-name" name="fullName" autoComplete="name" required disabled={busy} placeholder="Ada Lovelace" />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="signup-email">Email</Label>
        <Input
          id="signup-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          disabled={busy}
          placeholder="you@company.com"
          defaultValue={initialEmail}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="signup-password">Password</Label>
        <Input
          id="signup-password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          disabled={busy}
          aria-describedby="signup-password-hint"
        />
        <p id="signup-password-hint" className="text-xs text-muted-foreground">
          At least {MIN_PASSWORD_LENGTH} characters.
        </p>
      </div>
      <FormError>{error}</FormError>
      <Button type="submit" disabled={busy} className="w-full">
        {busy ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}
