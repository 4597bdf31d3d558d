import { SparklesIcon } from 'lucide-react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { MAIN_CONTENT_ID } from '#web/components/layout/skip-link.tsx';
import { Logo } from '#web/components/logo.tsx';
import { Button } from '#web/components/ui/button.tsx';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarGroupContent,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarInset,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarProvider,
  SidebarRail,
  SidebarTrigger,
  readSidebarCookie,
  useSidebar,
} from '#web/components/ui/sidebar.tsx';
import { cn } from '#web/lib/utils.ts';
import { BOTTOM_BAR_ITEMS, SIDEBAR_ITEMS } from './nav-items.ts';
import { NotificationBell } from './notification-bell.tsx';
import { UserMenu } from './user-menu.tsx';
import { SELF_HOSTED_MESSAGES } from '#web/components/self-hosted-note.tsx';
import { installation } from '#web/lib/config.ts';
import { hoursUsedText, useMyPlan } from '#web/lib/my-plan.ts';
import { useRealtimeConnection } from '#web/lib/realtime/use-realtime.ts';
import { paths } from '#web/app/paths.ts';

/** The signed-in app's frame (spec §2 App shell): sidebar, header, page, and the mobile bottom bar. */
export function AppShell() {
  useRealtimeConnection();
  return (
    <SidebarProvider defaultOpen={readSidebarCookie()}>
      <AppSidebar />
      <SidebarInset>
        <header className="sticky top-0 z-20 flex h-14 shrink-0 items-center gap-2 border-b bg-background/95 px-4 backdrop-blur">
          <SidebarTrigger className="-ml-1" />
          <Logo size="sm" className="md:hidden" />
          <div className="ml-auto flex items-center gap-2">
            <NotificationBell />
          </div>
        </header>
        <div id={MAIN_CONTENT_ID} tabIndex={-1} className="min-w-0 flex-1 p-4 pb-24 outline-none md:p-6 md:pb-6">
          <Outlet />
        </div>
        <BottomBar />
      </SidebarInset>
    </SidebarProvider>
  );
}

function AppSidebar() {
  const { pathname } = useLocation();
  const { isMobile, setOpenMobile } = useSidebar();
  return (
    <Sidebar collapsible="icon">
      <SidebarHeader>
        <NavLink
          to={paths.dashboard.href()}
          className="flex h-10 items-center px-2 group-data-[collapsible=icon]:justify-center group-data-[collapsible=icon]:px-0"
        >
          <Logo size="sm" className="group-data-[collapsible=icon]:[&>span:last-child]:hidden" />
        </NavLink>
      </SidebarHeader>
      <SidebarContent>
        <SidebarGroup>
          <SidebarGroupLabel>Workspace</SidebarGroupLabel>
          <SidebarGroupContent>
            <nav aria-label="Main">
              <SidebarMenu>
                {SIDEBAR_ITEMS.map((item) => (
                  <SidebarMenuItem key={item.to}>
                    <SidebarMenuButton asChild isActive={pathname.startsWith(item.to)} tooltip={item.label}>
                      <NavLink to={item.to} onClick={() => isMobile && setOpenMobile(false)}>
                        <item.icon />
                        <span>{item.label}</span>
                      </NavLink>
                    </SidebarMenuButton>
                  </SidebarMenuItem>
                ))}
              </SidebarMenu>
            </nav>
          </SidebarGroupContent>
        </SidebarGroup>
      </SidebarContent>
      <SidebarFooter>
        <UpgradeBox />
        <SidebarMenu>
          <SidebarMenuItem>
            <UserMenu />
          </SidebarMenuItem>
        </SidebarMenu>
      </SidebarFooter>
      <SidebarRail />
    </Sidebar>
  );
}

/**
 * Spec §2's 'Upgrade to Pro' box. A self-hosted installation has nothing to upgrade to: the box says
 * so, and its button shows the plans' features, all of which are included here, unless the
 * administrator put the person on a plan: then it names the plan and this month's hours.
 */
function UpgradeBox() {
  const { data } = useMyPlan();
  const plan = data?.plan;
  if (!installation().billing && plan) {
    return (
      <div className="rounded-lg border bg-gradient-to-br from-primary/10 to-accent p-3 group-data-[collapsible=icon]:hidden">
        <div className="flex items-center gap-2 text-sm font-semibold">
          <SparklesIcon className="size-4 text-primary" aria-hidden="true" />
          Upgrade to Pro
        </div>
        <p className="mt-1 text-xs text-muted-foreground">
          Your account is on the {plan.name} plan: {hoursUsedText(data.usage.hoursThisMonth, plan.limits.hoursPerMonth)} of transcription this month.
        </p>
        <Button size="sm" variant="outline" className="mt-3 w-full" asChild>
          <NavLink to={paths.settings.href('billing')}>See your plan</NavLink>
        </Button>
      </div>
    );
  }
  const selfHosted = !installation().billing;
  return (
    <div className="rounded-lg border bg-gradient-to-br from-primary/10 to-accent p-3 group-data-[collapsible=icon]:hidden">
      <div className="flex items-center gap-2 text-sm font-semibold">
        <SparklesIcon className="size-4 text-primary" aria-hidden="true" />
        Upgrade to Pro
      </div>
      <p className="mt-1 text-xs text-muted-foreground">
        {selfHosted ? SELF_HOSTED_MESSAGES.statement : 'More transcription hours, advanced sentiment analysis and real-time transcription.'}
      </p>
      <Button size="sm" variant={selfHosted ? 'outline' : 'default'} className="mt-3 w-full" asChild>
        <NavLink to={paths.pricing.href()}>{selfHosted ? 'See what is included' : 'Upgrade'}</NavLink>
      </Button>
    </div>
  );
}

function BottomBar() {
  return (
    <nav aria-label="Bottom" className="fixed inset-x-0 bottom-0 z-30 border-t bg-background/95 backdrop-blur md:hidden">
      <ul className="grid grid-cols-5">
        {BOTTOM_BAR_ITEMS.map((item) => (
          <li key={item.label}>
            <NavLink
              to={item.to}
              className={({ isActive }) =>
                // Home and Dashboard lead to the same page; Dashboard is the one marked as current there.
                cn('flex flex-col items-center gap-1 py-2 text-xs text-muted-foreground', isActive && item.label !== 'Home' && 'text-primary')
              }
            >
              <item.icon className="size-5" aria-hidden="true" />
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
