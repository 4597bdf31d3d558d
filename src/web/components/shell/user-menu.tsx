import type { User } from '@supabase/auth-js';
import { ChevronsUpDownIcon, LogOutIcon, SettingsIcon } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { Avatar, AvatarFallback, AvatarImage } from '#web/components/ui/avatar.tsx';
import { DeferredDropdownMenu } from '#web/components/ui/deferred-dropdown-menu.tsx';
import { SidebarMenuButton } from '#web/components/ui/sidebar.tsx';
import { AUTH_MESSAGES } from '#web/lib/auth/auth-messages.ts';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { avatarUrlOf, displayNameOf, initialsOf } from '#web/lib/auth/user-identity.ts';
import { cn } from '#web/lib/utils.ts';
import { paths } from '#web/app/paths.ts';

/** The signed-in person's menu (spec §2): initials, name or 'User', email, Settings and Sign out. */
export function UserMenu() {
  const { user, signOut } = useAuth();
  const navigate = useNavigate();
  if (!user) return null;
  const name = displayNameOf(user);

  // Sign out first, then leave: the page must not change before the session is gone (spec §8). The
  // login guard also sends a deliberate sign-out to / (signedOutByUser), so the two agree.
  const onSignOut = async () => {
    const { error } = await signOut();
    if (error) {
      toast.error(AUTH_MESSAGES.signOutFailed);
      return;
    }
    toast.success(AUTH_MESSAGES.signedOut);
    void navigate(paths.home.href());
  };

  return (
    // Not modal: a modal menu hides the rest of the page with aria-hidden while its links and buttons
    // stay focusable, which screen readers trip over (axe-core: aria-hidden-focus).
    <DeferredDropdownMenu
      modal={false}
      trigger={
        <SidebarMenuButton size="lg" aria-label={`User menu for ${name}`} className="data-[state=open]:bg-sidebar-accent">
          {/* The email darker than the muted grey, which is under 4.5:1 on the open button's accent background. */}
          <Identity user={user} name={name} initialsClassName="bg-primary text-primary-foreground" emailClassName="text-sidebar-foreground/70" />
          <ChevronsUpDownIcon className="ml-auto size-4" />
        </SidebarMenuButton>
      }
    >
      {(menu) => (
        <menu.DropdownMenuContent className="w-(--radix-dropdown-menu-trigger-width) min-w-56 rounded-lg" side="top" align="end" sideOffset={4}>
          <menu.DropdownMenuLabel className="p-0 font-normal">
            <div className="flex items-center gap-2 px-1 py-1.5 text-left text-sm">
              <Identity user={user} name={name} emailClassName="text-muted-foreground" />
            </div>
          </menu.DropdownMenuLabel>
          <menu.DropdownMenuSeparator />
          <menu.DropdownMenuItem onSelect={() => void navigate(paths.settings.href())}>
            <SettingsIcon />
            Settings
          </menu.DropdownMenuItem>
          <menu.DropdownMenuItem onSelect={() => void onSignOut()}>
            <LogOutIcon />
            Sign out
          </menu.DropdownMenuItem>
        </menu.DropdownMenuContent>
      )}
    </DeferredDropdownMenu>
  );
}

/** The person's avatar (or initials), name and email, on the menu's trigger and atop the menu. */
function Identity({ user, name, initialsClassName, emailClassName }: { user: User; name: string; initialsClassName?: string; emailClassName: string }) {
  return (
    <>
      <Avatar className="size-8 rounded-lg">
        <AvatarImage src={avatarUrlOf(user)} alt="" />
        <AvatarFallback className={cn('rounded-lg', initialsClassName)}>{initialsOf(user)}</AvatarFallback>
      </Avatar>
      <div className="grid flex-1 text-left text-sm leading-tight">
        <span className="truncate font-medium">{name}</span>
        <span className={cn('truncate text-xs', emailClassName)}>{user.email}</span>
      </div>
    </>
  );
}
