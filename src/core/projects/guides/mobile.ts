import type { Snippet } from "./snippet";

const q = (s: string) => JSON.stringify(s);

/** Mobile SDKs: none can run on this machine, so every guide says "not verified here". */
export function mobileGuides(dsn: string): Snippet[] {
  return [
    {
      path: "android",
      title: "Android",
      install: `// app/build.gradle.kts
implementation("io.sentry:sentry-android:latest.release")`,
      verified: "no",
      docs: "https://docs.sentry.io/platforms/android/manual-setup/",
      files: [
        {
          name: "AndroidManifest.xml",
          // The SDK initializes itself from these entries when the app starts.
          code: `<application>
  <meta-data android:name="io.sentry.dsn" android:value=${q(dsn)} />
  <meta-data android:name="io.sentry.traces.sample-rate" android:value="1.0" />
</application>`,
        },
      ],
    },
    {
      path: "apple/ios",
      title: "iOS",
      install: "Swift Package Manager: https://github.com/getsentry/sentry-cocoa.git",
      verified: "no",
      docs: "https://docs.sentry.io/platforms/apple/guides/ios/",
      files: [
        {
          name: "AppDelegate.swift (application(_:didFinishLaunchingWithOptions:))",
          code: `import Sentry

SentrySDK.start { options in
    options.dsn = ${q(dsn)}
    options.tracesSampleRate = 1.0
}`,
        },
      ],
    },
    {
      path: "react-native",
      title: "React Native",
      install: "npm install @sentry/react-native",
      verified: "no",
      docs: "https://docs.sentry.io/platforms/react-native/manual-setup/manual-setup/",
      files: [
        {
          name: "App.js",
          code: `import * as Sentry from "@sentry/react-native";

Sentry.init({
  dsn: ${q(dsn)},
  tracesSampleRate: 1.0,
});

export default Sentry.wrap(App);`,
        },
      ],
    },
  ];
}
