import { Button, Tooltip } from '@fluentui/react-components';
import { WeatherMoonRegular, WeatherSunnyRegular } from '@fluentui/react-icons';
import { TOOLTIP_SHOW_DELAY_MS, TOOLTIP_TOUCH_DELAY_MS } from '../lib/constants.ts';
import { useMediaQuery } from '../lib/hooks/use-media-query.ts';
import { useEarlyAction } from '../lib/early-input.ts';
import { useTheme } from '../lib/theme/theme-store.ts';

export function ThemeToggle() {
  const { themeMode, toggleTheme } = useTheme();
  const touch = useMediaQuery('(pointer: coarse)');
  useEarlyAction('theme-toggle', toggleTheme);
  const label = `Switch to ${themeMode === 'dark' ? 'light' : 'dark'} mode`;
  return (
    <Tooltip content={label} relationship="label" showDelay={touch ? TOOLTIP_TOUCH_DELAY_MS : TOOLTIP_SHOW_DELAY_MS}>
      <Button
        appearance="subtle"
        icon={themeMode === 'dark' ? <WeatherSunnyRegular /> : <WeatherMoonRegular />}
        onClick={toggleTheme}
        data-testid="theme-toggle"
        data-early-action="theme-toggle"
      />
    </Tooltip>
  );
}
