// Test-only stand-in for reference-shim/providers/registry.ts: the real registry, plus the official-CLI
// providers. build-shim.ts bundles the shim with this module in the registry's place, so the translator
// is tested end to end before (and after) the registry itself routes gemini-cli/codex-cli/claude-cli.
import { createProvider as createRegistryProvider, type ProviderSettings } from '../../reference-shim/providers/registry.js';
import type { Provider } from '../../reference-shim/providers/provider.js';
import { createCliProvider, isCliProviderId } from '../../reference-shim/providers/cli/index.js';

export * from '../../reference-shim/providers/registry.js';

export function createProvider(settings: ProviderSettings): Provider {
  if (isCliProviderId(settings.provider)) return createCliProvider(settings.provider, { env: settings.env });
  return createRegistryProvider(settings);
}
