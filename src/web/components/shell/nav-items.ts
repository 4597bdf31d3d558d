import { BarChart3Icon, BrainCircuitIcon, HistoryIcon, HomeIcon, LayoutDashboardIcon, MicIcon, SettingsIcon, UsersIcon, type LucideIcon } from 'lucide-react';
import { paths } from '#web/app/paths.ts';

export type NavItem = { label: string; to: string; icon: LucideIcon };

/** The sidebar entries (spec §2 App shell). */
export const SIDEBAR_ITEMS: NavItem[] = [
  { label: 'Dashboard', to: paths.dashboard.href(), icon: LayoutDashboardIcon },
  { label: 'Record Meeting', to: paths.record.href(), icon: MicIcon },
  { label: 'Meeting History', to: paths.history.href(), icon: HistoryIcon },
  { label: 'AI Insights', to: paths.insights.href(), icon: BrainCircuitIcon },
  { label: 'Team', to: paths.team.href(), icon: UsersIcon },
  { label: 'Settings', to: paths.settings.href(), icon: SettingsIcon },
];

/**
 * The mobile bottom bar (spec §2: Home, Dashboard, Record, History, Insights). A signed-in person's
 * home is their dashboard: Home leaving the app for the public landing page lost their place.
 */
export const BOTTOM_BAR_ITEMS: NavItem[] = [
  { label: 'Home', to: paths.dashboard.href(), icon: HomeIcon },
  { label: 'Dashboard', to: paths.dashboard.href(), icon: LayoutDashboardIcon },
  { label: 'Record', to: paths.record.href(), icon: MicIcon },
  { label: 'History', to: paths.history.href(), icon: HistoryIcon },
  { label: 'Insights', to: paths.insights.href(), icon: BarChart3Icon },
];
