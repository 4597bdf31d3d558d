/** A source's input level (the microphone, a shared tab), so people see that it is being heard. */
export function LevelMeter({ level, active, label = 'Input level' }: { level: number; active: boolean; label?: string }) {
  const bars = 16;
  const lit = active ? Math.round(level * bars) : 0;
  return (
    <div role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(level * 100)} className="flex h-6 items-end gap-0.5">
      {Array.from({ length: bars }, (_, i) => (
        <span
          key={i}
          className={`w-1.5 rounded-sm transition-colors ${i < lit ? (i > 12 ? 'bg-destructive' : 'bg-primary') : 'bg-muted'}`}
          style={{ height: `${30 + (i / bars) * 70}%` }}
        />
      ))}
    </div>
  );
}
