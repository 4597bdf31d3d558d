import { BarChart3Icon, BrainCircuitIcon, HistoryIcon, HomeIcon, LayoutDashboardIcon, MicIcon, SettingsIcon, UsersIcon, type LucideIcon } from 'lucide-react';

export type NavItem = { label: string; to: string; icon: LucideIcon };

/** The sidebar entries (spec §2 App shell). */
export const SIDEBAR_ITEMS: NavItem[] = [
  { label: 'Dashboard', to: '/dashboard', icon: LayoutDashboardIcon },
  { label: 'Record Meeting', to: '/record', icon: MicIcon },
  { label: 'Meeting History', to: '/history', icon: HistoryIcon },
  { label: 'AI Insights', to: '/insights', icon: BrainCircuitIcon },
  { label: 'Team', to: '/team', icon: UsersIcon },
  { label: 'Settings', to: '/settings', icon: SettingsIcon },
];

/** The mobile bottom bar (spec §2: Home, Dashboard, Record, History, Insights). */
export const BOTTOM_BAR_ITEMS: NavItem[] = [
  { label: 'Home', to: '/', icon: HomeIcon },
  { label: 'Dashboard', to: '/dashboard', icon: LayoutDashboardIcon },
  { label: 'Record', to: '/record', icon: MicIcon },
  { label: 'History', to: '/history', icon: HistoryIcon },
  { label: 'Insights', to: '/insights', icon: BarChart3Icon },
];
