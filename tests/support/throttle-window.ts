import { config } from '#shared/config/service';

/** The fixed window the service counts attempts in (`THROTTLE#…`, `WINDOW#<start>`) at this moment. */
const currentWindow = () => Math.floor(Date.now() / 1000 / config().throttle.windowSeconds);

/**
 * A test of counting within one window. Counters start afresh when their window ends, so a test whose
 * attempts straddle a window boundary is run once more, wholly within the next window (every run
 * must use fresh users and client addresses); a failure within one window fails.
 */
export const windowTest = (name: string, body: () => Promise<void>, timeout?: number) =>
  test(
    name,
    async () => {
      const started = currentWindow();
      try {
        await body();
      } catch (error) {
        if (currentWindow() === started) throw error;
        await body();
      }
    },
    timeout,
  );
