import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { UsersIcon } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { teamEndpoints } from '#shared/contracts/teams.ts';
import { MAIN_CONTENT_ID } from '#web/components/layout/skip-link.tsx';
import { Logo } from '#web/components/logo.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { api } from '#web/lib/api-client.ts';
import { ApiError } from '#web/lib/api-error.ts';
import { rememberReturnTo, takeReturnTo } from '#web/lib/auth/return-to.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { TEAM_DATA_KEY } from '#web/lib/query-keys.ts';
import { paths } from '#web/app/paths.ts';
import { useSelectedTeam } from './use-selected-team.ts';

const expiry = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' });

/**
 * /invite/:token, the link in an invitation email (or a copied invite link): who invites to which
 * team with which role, before anyone signs in. Accepting needs an account: a visitor signs in or
 * signs up first and comes back here (the address is kept across /auth). An expired, revoked or used
 * invitation says so, in the server's words.
 */
export function InvitePage() {
  const { token = '' } = useParams();
  const { user, loading } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [, selectTeam] = useSelectedTeam(user?.id, undefined);
  const preview = useQuery({
    queryKey: ['invitation', token],
    queryFn: ({ signal }) => api(teamEndpoints.previewInvitation, { params: { token } }, { signal }),
    retry: false,
  });
  const accept = useMutation({
    mutationFn: () => api(teamEndpoints.acceptInvitation, { params: { token } }),
    onSuccess: async ({ team }) => {
      selectTeam(team.id);
      await queryClient.invalidateQueries({ queryKey: TEAM_DATA_KEY });
      toast.success(`You joined ${team.name}`);
      void navigate(paths.team.href());
    },
    onError: (error) => toast.error(error.message),
  });
  // Back from /auth, signed in: the stored way back has served its purpose.
  useEffect(() => {
    if (user) takeReturnTo();
  }, [user]);

  // An emailed invitation is for its address: the forms start with it.
  const toAuth = (tab?: 'signup') => {
    rememberReturnTo(paths.invite.href(token));
    void navigate(paths.auth.href(tab, preview.data?.email ?? undefined));
  };

  return (
    <div className="flex min-h-svh flex-col bg-muted/30">
      {/* The token is a credential: keep the page out of search engines. */}
      <meta name="robots" content="noindex, nofollow" />
      <title>Team invitation · Parley</title>
      <header className="border-b bg-background">
        <div className="mx-auto flex max-w-4xl items-center px-4 py-3">
          <Link to={paths.home.href()} aria-label="Parley home">
            <Logo size="sm" />
          </Link>
        </div>
      </header>
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="mx-auto w-full max-w-md flex-1 px-4 py-12 outline-none">
        <Card>
          {preview.isPending ? (
            <CardContent>
              <p role="status" className="text-muted-foreground">
                Loading the invitation…
              </p>
            </CardContent>
          ) : preview.isError ? (
            <>
              <CardHeader>
                <CardTitle>
                  <h1>This invitation cannot be used</h1>
                </CardTitle>
                <CardDescription role="alert">
                  {preview.error instanceof ApiError && preview.error.status > 0
                    ? preview.error.message
                    : 'The invitation could not be loaded. Try again later.'}
                </CardDescription>
              </CardHeader>
              <CardFooter>
                <Button variant="outline" asChild>
                  <Link to={user ? paths.dashboard.href() : paths.home.href()}>{user ? 'Go to the dashboard' : 'Back to Home'}</Link>
                </Button>
              </CardFooter>
            </>
          ) : (
            <>
              <CardHeader>
                <UsersIcon className="mb-2 size-8 text-primary" aria-hidden="true" />
                <CardTitle>
                  <h1>Join {preview.data.teamName}</h1>
                </CardTitle>
                <CardDescription>
                  {preview.data.invitedBy} invited you to join the team “{preview.data.teamName}” on Parley as{' '}
                  {preview.data.role === 'admin' ? 'an admin' : 'a member'}. The invitation expires on {expiry.format(new Date(preview.data.expiresAt))}.
                </CardDescription>
              </CardHeader>
              <CardContent className="text-sm text-muted-foreground">
                {user
                  ? `You will join as ${user.email ?? 'yourself'}, and see the meetings the team shares.`
                  : 'Sign in, or create an account, to accept. You will come back here afterwards.'}
              </CardContent>
              <CardFooter className="flex flex-wrap gap-2">
                {loading ? null : user ? (
                  <Button onClick={() => accept.mutate()} disabled={accept.isPending}>
                    Accept invitation
                  </Button>
                ) : (
                  <>
                    <Button onClick={() => toAuth()}>Sign in to accept</Button>
                    <Button variant="outline" onClick={() => toAuth('signup')}>
                      Create an account
                    </Button>
                  </>
                )}
              </CardFooter>
            </>
          )}
        </Card>
      </main>
    </div>
  );
}
