import type { Snippet } from "./snippet";

const q = (s: string) => JSON.stringify(s);

/** Server languages. Python and Go run here (Debian's sentry-python and sentry-go); the Ruby, Java, .NET and PHP SDKs do not. */
export function serverGuides(dsn: string): Snippet[] {
  return [
    {
      path: "python",
      title: "Python",
      install: "pip install sentry-sdk",
      verified: "run",
      docs: "https://docs.sentry.io/platforms/python/",
      files: [
        {
          name: "app.py",
          code: `import sentry_sdk

sentry_sdk.init(
    dsn=${q(dsn)},
    traces_sample_rate=1.0,
)

# A first error to check the set-up; remove it afterwards.
division_by_zero = 1 / 0`,
        },
      ],
    },
    {
      path: "go",
      title: "Go",
      install: "go get github.com/getsentry/sentry-go",
      verified: "run",
      // Debian's sentry-go is 0.11; the snippet keeps to API that 0.11 and the current SDK share
      // (https://github.com/getsentry/sentry-go/blob/master/_examples/basic/main.go).
      verifiedWith: "sentry-go 0.11",
      docs: "https://docs.sentry.io/platforms/go/",
      files: [
        {
          name: "main.go",
          code: `package main

import (
	"errors"
	"log"
	"time"

	"github.com/getsentry/sentry-go"
)

func main() {
	err := sentry.Init(sentry.ClientOptions{
		Dsn: ${q(dsn)},
		// For tracing (sentry-go 0.22 and later):
		// EnableTracing: true, TracesSampleRate: 1.0,
	})
	if err != nil {
		log.Fatalf("sentry.Init: %s", err)
	}
	// Events are sent in the background: wait for them before the program exits.
	defer sentry.Flush(2 * time.Second)

	// A first error to check the set-up; remove it afterwards.
	sentry.CaptureException(errors.New("My first Telltale error"))
}`,
        },
      ],
    },
    {
      path: "ruby",
      title: "Ruby",
      install: "bundle add sentry-ruby",
      verified: "no",
      note: "The tests drive only the legacy Raven client (sentry-raven 3.1), whose events Telltale stores.",
      docs: "https://docs.sentry.io/platforms/ruby/",
      files: [
        {
          name: "app.rb",
          code: `require "sentry-ruby"

Sentry.init do |config|
  config.dsn = ${q(dsn)}
  config.traces_sample_rate = 1.0
end

Sentry.capture_message("My first Telltale event")`,
        },
      ],
    },
    {
      path: "java",
      title: "Java",
      install: `// build.gradle.kts
implementation("io.sentry:sentry:latest.release")`,
      verified: "no",
      docs: "https://docs.sentry.io/platforms/java/",
      files: [
        {
          name: "Main.java",
          code: `import io.sentry.Sentry;

public class Main {
  public static void main(String[] args) {
    Sentry.init(options -> {
      options.setDsn(${q(dsn)});
      options.setTracesSampleRate(1.0);
    });
    Sentry.captureMessage("My first Telltale event");
    Sentry.close();
  }
}`,
        },
      ],
    },
    {
      path: "dotnet",
      title: ".NET",
      install: "dotnet add package Sentry",
      verified: "no",
      docs: "https://docs.sentry.io/platforms/dotnet/",
      files: [
        {
          name: "Program.cs",
          code: `using Sentry;

// Disposing the SDK flushes what is queued before the program exits.
using (SentrySdk.Init(options =>
{
    options.Dsn = ${q(dsn)};
    options.TracesSampleRate = 1.0;
}))
{
    SentrySdk.CaptureMessage("My first Telltale event");
}`,
        },
      ],
    },
    {
      path: "php",
      title: "PHP",
      install: "composer require sentry/sentry",
      verified: "no",
      docs: "https://docs.sentry.io/platforms/php/",
      files: [
        {
          name: "index.php",
          code: `<?php
require __DIR__ . '/vendor/autoload.php';

\\Sentry\\init([
    'dsn' => ${q(dsn)},
    'traces_sample_rate' => 1.0,
]);

\\Sentry\\captureMessage('My first Telltale event');`,
        },
      ],
    },
  ];
}
