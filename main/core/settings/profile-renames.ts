import type { SettingsValue } from '../app/settings-store.ts';

/**
 * The gateway profiles a change of the settings renamed: profiles come whole, so a rename
 * shows as one name gone and one new at the same place in the list. Old name → new name.
 */
export function renamedProfiles(
  before: ReadonlyArray<{ name: string }>,
  next: ReadonlyArray<{ name: string }>,
): Map<string, string> {
  const beforeNames = new Set(before.map((p) => p.name));
  const nextNames = new Set(next.map((p) => p.name));
  const renamed = new Map<string, string>();
  before.forEach(({ name }, i) => {
    const now = next[i]?.name;
    if (now !== undefined && now !== name && !nextNames.has(name) && !beforeNames.has(now)) {
      renamed.set(name, now);
    }
  });
  return renamed;
}

/** What names a renamed profile follows it: the gateway chosen, its day's spending cap. */
export function followRenames(
  settings: SettingsValue,
  renamed: ReadonlyMap<string, string>,
): SettingsValue {
  if (renamed.size === 0) return settings;
  const { gateway, budget } = settings;
  const perGatewayDay = Object.fromEntries(
    Object.entries(budget.perGatewayDay).map(([name, cap]) => [renamed.get(name) ?? name, cap]),
  );
  return {
    ...settings,
    gateway:
      gateway.kind === 'remote' && renamed.has(gateway.profile)
        ? { kind: 'remote', profile: renamed.get(gateway.profile)! }
        : gateway,
    budget: { ...budget, perGatewayDay },
  };
}
