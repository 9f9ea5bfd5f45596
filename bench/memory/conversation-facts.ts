/**
 * The facts of the conversation corpus (see conversation-corpus.ts): what the
 * user tells over the sessions, each with the questions it answers.
 */
import type { StoredMemoryType } from "@agent-tools/memory";

/** The kinds of question, reported separately. */
export type QuestionKind = "identity" | "preference" | "project" | "person" | "decision" | "superseded" | "override" | "cjk-sentence" | "cjk-keywords";

/** One fact: its entry and the questions that it answers. */
export interface FactSpec {
  slug: string;
  /** `""` for global, else a project name. */
  project: string;
  type: StoredMemoryType;
  session: number;
  description: string;
  body: string;
  supersedes?: string;
  questions: [QuestionKind, string][];
}

/** Facts told over the sessions; questions are asked from `askIn` (default: the fact's own project, else atlas). */
export const FACTS: FactSpec[] = [
  // Identity.
  {
    slug: "user-name",
    project: "",
    type: "user",
    session: 1,
    description: "User's name is Daniel Okafor, goes by Dan",
    body: "Introduced himself as Daniel Okafor in the first session. Prefers to be addressed as Dan.",
    questions: [
      ["identity", "what's my name?"],
      ["identity", "who am I?"],
      ["identity", "how should you address me"],
    ],
  },
  {
    slug: "user-location",
    project: "",
    type: "user",
    session: 1,
    description: "Lives in Lisbon, Portugal; works on Lisbon time (WET/WEST)",
    body: "Dan moved to Lisbon in 2024 and works remotely. Schedule meetings on Western European time.",
    questions: [
      ["identity", "which city am I based in"],
      ["identity", "what timezone am I in?"],
    ],
  },
  {
    slug: "user-employer",
    project: "",
    type: "user",
    session: 2,
    description: "Staff engineer on the platform team at Northwind Logistics",
    body: "Dan works at Northwind Logistics as a staff engineer, platform team, since 2022.",
    questions: [
      ["identity", "where do I work?"],
      ["identity", "what is my job title"],
    ],
  },
  {
    slug: "user-languages",
    project: "",
    type: "user",
    session: 3,
    description: "Native English speaker; learning Portuguese and Japanese",
    body: "Speaks English natively. Studying Portuguese (B1) and Japanese (N4).",
    questions: [
      ["identity", "which foreign languages am I studying"],
      ["identity", "what languages do I speak?"],
    ],
  },
  {
    slug: "user-birthday",
    project: "",
    type: "user",
    session: 4,
    description: "Birthday is on 14 March",
    body: "Dan mentioned his birthday is March 14th; turned 38 this year.",
    questions: [
      ["identity", "when is my birthday?"],
      ["identity", "what day was I born"],
    ],
  },
  // Preferences and feedback.
  {
    slug: "editor-preference",
    project: "",
    type: "user",
    session: 2,
    description: "Uses Neovim with the LazyVim distribution for all coding",
    body: "Neovim is the main editor, configured with LazyVim. Does not want VS Code instructions.",
    questions: [
      ["preference", "which editor do I like?"],
      ["preference", "what text editor should you assume I code in"],
    ],
  },
  {
    slug: "theme-preference",
    project: "",
    type: "user",
    session: 3,
    description: "Likes dark color schemes (Tokyo Night) everywhere",
    body: "Dark themes in the terminal and in every IDE; Tokyo Night is the favorite.",
    questions: [
      ["preference", "do I want light or dark mode?"],
      ["preference", "which colour scheme do I prefer"],
    ],
  },
  {
    slug: "coffee-order",
    project: "",
    type: "user",
    session: 5,
    description: "Drinks flat white with oat milk, no sugar",
    body: "Usual coffee: a flat white with oat milk and no sugar.",
    questions: [
      ["preference", "how do I take my coffee?"],
      ["preference", "what should you order for me at a cafe"],
    ],
  },
  {
    slug: "answer-style",
    project: "",
    type: "feedback",
    session: 4,
    description: "Wants short answers with the code first, no long preambles",
    body: "Asked for terse replies: code block first, then at most two sentences of explanation.",
    questions: [
      ["preference", "how verbose should your replies be?"],
      ["preference", "do I like long explanations"],
    ],
  },
  {
    slug: "commit-style",
    project: "",
    type: "feedback",
    session: 6,
    description: "Commit messages: imperative mood with Conventional Commits prefixes",
    body: "Write commits like 'fix: handle empty input' — imperative mood, Conventional Commits prefix, no trailing period.",
    questions: [
      ["preference", "how should I format git commit messages"],
      ["preference", "which convention do I follow for commit titles?"],
    ],
  },
  {
    slug: "indentation",
    project: "",
    type: "feedback",
    session: 6,
    description: "Indent with two spaces, never tabs",
    body: "Two-space indentation in every language except Go and Makefiles.",
    questions: [
      ["preference", "tabs or spaces?"],
      ["preference", "what indent width do I prefer"],
    ],
  },
  {
    slug: "package-manager",
    project: "",
    type: "user",
    session: 7,
    description: "Prefers pnpm over npm and yarn",
    body: "Always use pnpm for JavaScript workspaces; npm only for one-off global installs.",
    questions: [
      ["preference", "which node package manager do I favour?"],
      ["preference", "should you suggest yarn commands"],
    ],
  },
  {
    slug: "test-framework",
    project: "",
    type: "user",
    session: 8,
    description: "Likes vitest; dislikes Jest's module mocking",
    body: "For TypeScript tests reach for vitest. Jest's automatic mocks caused him pain at work.",
    questions: [
      ["preference", "which testing library do I prefer for TypeScript?"],
      ["preference", "what unit test runner should new projects use"],
    ],
  },
  {
    slug: "music-while-coding",
    project: "",
    type: "user",
    session: 9,
    description: "Listens to lo-fi hip hop while programming",
    body: "Puts on lo-fi hip hop playlists during focus time.",
    questions: [["preference", "what kind of music do I put on when I work?"]],
  },
  {
    slug: "diet",
    project: "",
    type: "user",
    session: 10,
    description: "Vegetarian; does not eat fish either",
    body: "No meat and no fish. Eggs and dairy are fine.",
    questions: [
      ["preference", "can I eat salmon?"],
      ["preference", "what are my dietary restrictions"],
    ],
  },
  // People.
  {
    slug: "person-maria-santos",
    project: "",
    type: "reference",
    session: 2,
    description: "Maria Santos is Dan's manager at Northwind",
    body: "Maria Santos, engineering manager of the platform team; weekly 1:1 on Tuesdays.",
    questions: [
      ["person", "who is my boss?"],
      ["person", "when is my one-on-one with Maria"],
    ],
  },
  {
    slug: "person-kenji-watanabe",
    project: "",
    type: "reference",
    session: 5,
    description: "Kenji Watanabe reviews infrastructure pull requests",
    body: "Kenji Watanabe owns the Terraform modules; add him as reviewer on infra changes.",
    questions: [
      ["person", "who should review my terraform change?"],
      ["person", "who is Kenji"],
    ],
  },
  {
    slug: "person-priya-raman",
    project: "atlas",
    type: "reference",
    session: 7,
    description: "Priya Raman designs the atlas UI",
    body: "Priya Raman is the product designer on atlas; Figma files live in the 'atlas-web' team.",
    questions: [
      ["person", "who does the design work for this app?"],
      ["person", "where are the Figma mockups"],
    ],
  },
  {
    slug: "person-amara",
    project: "",
    type: "user",
    session: 11,
    description: "Sister Amara lives in Manchester with two kids",
    body: "Dan's sister Amara lives in Manchester, UK; nephews Tobi and Zara.",
    questions: [
      ["person", "where does my sister live?"],
      ["person", "what are my nephews called"],
    ],
  },
  {
    slug: "person-tomas-ferreira",
    project: "",
    type: "reference",
    session: 9,
    description: "Tomás Ferreira is the Portuguese tutor; lessons on Thursdays",
    body: "Portuguese lessons with Tomás Ferreira every Thursday at 18:00 over video.",
    questions: [
      ["person", "who teaches me Portuguese?"],
      ["person", "when do I meet Tomas"],
    ],
  },
  // Project facts.
  {
    slug: "atlas-database",
    project: "atlas",
    type: "project",
    session: 3,
    description: "atlas stores its data in PostgreSQL 16 through Prisma",
    body: "Primary store is PostgreSQL 16; the schema lives in prisma/schema.prisma.",
    questions: [
      ["project", "which DB does this app use?"],
      ["project", "where is the schema defined"],
    ],
  },
  {
    slug: "atlas-deploy",
    project: "atlas",
    type: "project",
    session: 4,
    description: "atlas deploys to Fly.io from main through GitHub Actions",
    body: "Merges to main trigger the deploy workflow, which runs flyctl deploy to the atlas-prod app.",
    questions: [
      ["project", "how do we ship to production?"],
      ["project", "which hosting provider runs atlas"],
    ],
  },
  {
    slug: "atlas-dev-port",
    project: "atlas",
    type: "project",
    session: 5,
    description: "atlas dev server (Vite) listens on port 5173",
    body: "pnpm dev starts Vite on http://localhost:5173; the API proxy goes to 8787.",
    questions: [
      ["project", "what port does the local dev server listen on?"],
      ["project", "which localhost address do I open for the frontend"],
    ],
  },
  {
    slug: "atlas-auth",
    project: "atlas",
    type: "project",
    session: 8,
    description: "atlas uses Clerk for sign-in and sessions",
    body: "Authentication is handled by Clerk; webhooks sync users into the users table.",
    questions: [
      ["project", "what handles login here?"],
      ["project", "which auth provider did we integrate"],
    ],
  },
  {
    slug: "atlas-staging-url",
    project: "atlas",
    type: "reference",
    session: 9,
    description: "atlas staging runs at staging.atlas.example.dev",
    body: "Staging: https://staging.atlas.example.dev (basic auth in 1Password, vault 'atlas').",
    questions: [
      ["project", "what's the staging address?"],
      ["project", "where is the pre-production environment"],
    ],
  },
  {
    slug: "atlas-feature-flags",
    project: "atlas",
    type: "project",
    session: 14,
    description: "Feature flags live in LaunchDarkly with the prefix atlas_",
    body: "Every flag is created in LaunchDarkly, named atlas_<feature>, and removed within two releases.",
    questions: [
      ["project", "where are feature toggles managed?"],
      ["project", "how should I name a new flag"],
    ],
  },
  {
    slug: "harbor-language",
    project: "harbor",
    type: "project",
    session: 6,
    description: "harbor is a command-line tool written in Rust (edition 2021)",
    body: "The harbor CLI is a Rust crate, edition 2021, built with cargo.",
    questions: [
      ["project", "what programming language is this tool built with?"],
      ["project", "which rust edition do we compile with"],
    ],
  },
  {
    slug: "harbor-release",
    project: "harbor",
    type: "project",
    session: 15,
    description: "harbor releases are cut with cargo-dist on v* tags",
    body: "Push a tag like v0.9.0 and cargo-dist builds the binaries and the GitHub release.",
    questions: [
      ["project", "how do I publish a new version?"],
      ["project", "what builds the release binaries"],
    ],
  },
  {
    slug: "harbor-msrv",
    project: "harbor",
    type: "project",
    session: 16,
    description: "harbor's minimum supported Rust version is 1.74",
    body: "MSRV 1.74, checked in CI with the msrv job.",
    questions: [["project", "what's the minimum supported compiler version?"]],
  },
  {
    slug: "lumen-orchestrator",
    project: "lumen",
    type: "project",
    session: 17,
    description: "lumen pipelines are scheduled with Dagster",
    body: "Every lumen job is a Dagster asset; schedules are defined in lumen/schedules.py.",
    questions: [
      ["project", "what schedules the jobs?"],
      ["project", "which orchestration tool runs our pipelines"],
    ],
  },
  {
    slug: "lumen-warehouse",
    project: "lumen",
    type: "project",
    session: 18,
    description: "lumen writes its output to BigQuery dataset analytics_prod",
    body: "Tables land in the BigQuery dataset analytics_prod, partitioned by event date.",
    questions: [
      ["project", "where does the output land?"],
      ["project", "which data warehouse do we load into"],
    ],
  },
  {
    slug: "lumen-oncall",
    project: "lumen",
    type: "project",
    session: 19,
    description: "lumen on-call rotates weekly on the PagerDuty schedule data-eng",
    body: "Alerts go to PagerDuty schedule data-eng; the rotation changes every Monday.",
    questions: [
      ["project", "who gets paged when the pipeline breaks?"],
      ["project", "how often does the on-call rotation change"],
    ],
  },
  // Decisions.
  {
    slug: "decision-postgres-over-mongo",
    project: "atlas",
    type: "project",
    session: 3,
    description: "Chose PostgreSQL over MongoDB for atlas: billing data is relational",
    body: "Decision: PostgreSQL, not MongoDB. Invoices, customers and plans need joins and transactions.",
    questions: [
      ["decision", "why didn't we pick mongo?"],
      ["decision", "what was the reason for a relational database"],
    ],
  },
  {
    slug: "decision-monorepo",
    project: "atlas",
    type: "project",
    session: 10,
    description: "Keep the atlas web app and its API in one pnpm monorepo",
    body: "Decided against separate repositories: apps/web and apps/api share types in packages/shared.",
    questions: [
      ["decision", "did we split the frontend and backend into separate repos?"],
      ["decision", "why do web and api live together"],
    ],
  },
  {
    slug: "decision-rest-not-graphql",
    project: "atlas",
    type: "project",
    session: 12,
    description: "Dropped GraphQL in favour of REST with an OpenAPI spec",
    body: "GraphQL was removed: the team settled on REST endpoints described by openapi.yaml.",
    questions: [
      ["decision", "what API style did we settle on?"],
      ["decision", "are we still using graphql"],
    ],
  },
  {
    slug: "decision-rust-rewrite",
    project: "harbor",
    type: "project",
    session: 7,
    description: "Rewrote harbor from Go to Rust for small static binaries",
    body: "Moved from Go to Rust: smaller static binaries and a single dependency tree.",
    questions: [
      ["decision", "why was the CLI ported away from Go?"],
      ["decision", "what did we rewrite this tool from"],
    ],
  },
  // Changed facts: the newer entry supersedes the older one and holds the answer.
  {
    slug: "laptop",
    project: "",
    type: "user",
    session: 2,
    description: "Uses a 2020 MacBook Air (M1)",
    body: "Daily machine is a MacBook Air M1 from 2020 running macOS.",
    questions: [],
  },
  {
    slug: "laptop-thinkpad",
    project: "",
    type: "user",
    session: 31,
    supersedes: "laptop",
    description: "Switched to a ThinkPad X1 Carbon running Fedora",
    body: "Replaced the MacBook with a ThinkPad X1 Carbon (Gen 12) running Fedora 41.",
    questions: [
      ["superseded", "what computer am I using now?"],
      ["superseded", "which laptop do I have"],
    ],
  },
  {
    slug: "atlas-node-version",
    project: "atlas",
    type: "project",
    session: 5,
    description: "atlas runs on Node 18",
    body: "The atlas services run on Node.js 18 in production.",
    questions: [],
  },
  {
    slug: "atlas-node-20",
    project: "atlas",
    type: "project",
    session: 26,
    supersedes: "atlas-node-version",
    description: "atlas upgraded to Node 20 LTS",
    body: "All atlas services were moved to Node.js 20 LTS; .nvmrc says 20.",
    questions: [
      ["superseded", "which node runtime version do we target?"],
      ["superseded", "what's in the .nvmrc"],
    ],
  },
  {
    slug: "standup-time",
    project: "",
    type: "reference",
    session: 3,
    description: "Team standup every day at 09:30",
    body: "Platform team standup at 09:30 Lisbon time, every weekday.",
    questions: [],
  },
  {
    slug: "standup-time-changed",
    project: "",
    type: "reference",
    session: 28,
    supersedes: "standup-time",
    description: "Standup moved to 10:00, Mondays and Thursdays only",
    body: "From May the platform standup is at 10:00 on Mondays and Thursdays; async updates on other days.",
    questions: [
      ["superseded", "when is the team sync meeting?"],
      ["superseded", "what time is standup"],
    ],
  },
  {
    slug: "atlas-styling",
    project: "atlas",
    type: "project",
    session: 6,
    description: "atlas styles components with styled-components",
    body: "CSS-in-JS through styled-components, theme in src/theme.ts.",
    questions: [],
  },
  {
    slug: "atlas-tailwind",
    project: "atlas",
    type: "project",
    session: 33,
    supersedes: "atlas-styling",
    description: "atlas migrated its styling to Tailwind CSS",
    body: "styled-components were removed; all components now use Tailwind CSS utility classes.",
    questions: [
      ["superseded", "what do we use for styling?"],
      ["superseded", "is this codebase still on CSS-in-JS"],
    ],
  },
  {
    slug: "exercise",
    project: "",
    type: "user",
    session: 8,
    description: "Goes to the gym on Tuesday evenings",
    body: "Gym session every Tuesday evening after work.",
    questions: [],
  },
  {
    slug: "exercise-climbing",
    project: "",
    type: "user",
    session: 35,
    supersedes: "exercise",
    description: "Climbs on Wednesdays and Saturdays instead of the gym",
    body: "Quit the gym; bouldering on Wednesday evenings and Saturday mornings now.",
    questions: [
      ["superseded", "which days do I work out?"],
      ["superseded", "do I still go to the gym"],
    ],
  },
  // A project entry overrides the global one with the same slug.
  {
    slug: "test-command",
    project: "",
    type: "reference",
    session: 4,
    description: "Run the tests with npm test",
    body: "Default test command in Dan's projects: npm test.",
    questions: [],
  },
  {
    slug: "test-command",
    project: "atlas",
    type: "project",
    session: 13,
    description: "atlas runs the tests with pnpm vitest run --changed",
    body: "In atlas the test command is pnpm vitest run --changed; full run in CI only.",
    questions: [
      ["override", "how do I run the test suite here?"],
      ["override", "what's the command for tests"],
    ],
  },
  {
    slug: "lint-setup",
    project: "",
    type: "reference",
    session: 5,
    description: "Lint with ESLint and Prettier",
    body: "Default lint setup: ESLint with the recommended config plus Prettier.",
    questions: [],
  },
  {
    slug: "lint-setup",
    project: "harbor",
    type: "project",
    session: 16,
    description: "harbor lints with clippy -D warnings and rustfmt",
    body: "In harbor run cargo clippy -- -D warnings and cargo fmt --check before pushing.",
    questions: [
      ["override", "which linter do I run before pushing?"],
      ["override", "how do I check formatting"],
    ],
  },
  // Chinese sessions.
  {
    slug: "zh-tea",
    project: "",
    type: "user",
    session: 12,
    description: "喜欢喝乌龙茶，不加糖",
    body: "用户说他最喜欢喝台湾乌龙茶，平时不加糖。",
    questions: [
      ["cjk-sentence", "我喜欢喝什么茶？"],
      ["cjk-keywords", "乌龙茶 糖"],
    ],
  },
  {
    slug: "zh-report-deadline",
    project: "lumen",
    type: "project",
    session: 13,
    description: "lumen 季度报告的截止日期是六月三十日",
    body: "lumen 的季度数据报告必须在六月三十日之前交给财务部。",
    questions: [
      ["cjk-sentence", "季度报告什么时候截止？"],
      ["cjk-keywords", "报告 截止日期"],
    ],
  },
  {
    slug: "zh-colleague-li-wei",
    project: "",
    type: "reference",
    session: 12,
    description: "同事李伟负责数据库迁移",
    body: "李伟是平台组的同事，负责这次数据库迁移和回滚方案。",
    questions: [
      ["cjk-sentence", "数据库迁移是谁负责的？"],
      ["cjk-keywords", "李伟"],
    ],
  },
  {
    slug: "zh-parents",
    project: "",
    type: "user",
    session: 13,
    description: "父母住在拉各斯",
    body: "用户的父母住在尼日利亚拉各斯，每年圣诞节回去探望。",
    questions: [
      ["cjk-sentence", "我的父母住在哪里？"],
      ["cjk-keywords", "父母 拉各斯"],
    ],
  },
  // Japanese sessions.
  {
    slug: "ja-lesson",
    project: "",
    type: "user",
    session: 20,
    description: "日本語のレッスンは毎週土曜日の朝",
    body: "日本語のレッスンは毎週土曜日の朝九時から、オンラインで受けている。",
    questions: [
      ["cjk-sentence", "日本語の授業は何曜日ですか？"],
      ["cjk-keywords", "レッスン 土曜日"],
    ],
  },
  {
    slug: "ja-ramen",
    project: "",
    type: "user",
    session: 21,
    description: "好きなラーメンは味噌ラーメン",
    body: "一番好きなラーメンは札幌の味噌ラーメン。豚骨は重すぎるそうだ。",
    questions: [
      ["cjk-sentence", "好きなラーメンは？"],
      ["cjk-keywords", "ラーメン 好み"],
    ],
  },
  {
    slug: "ja-kyoto-trip",
    project: "",
    type: "user",
    session: 21,
    description: "10月に京都へ旅行する予定",
    body: "十月の第二週に京都へ旅行する予定。宿は祇園の近く。",
    questions: [
      ["cjk-sentence", "京都旅行はいつですか？"],
      ["cjk-keywords", "京都 旅行"],
    ],
  },
  {
    slug: "ja-keyboard",
    project: "",
    type: "user",
    session: 22,
    description: "キーボードはHHKB Professional",
    body: "仕事用のキーボードはHHKB Professional HYBRID、英語配列。",
    questions: [
      ["cjk-sentence", "どのキーボードを使っていますか？"],
      ["cjk-keywords", "キーボード"],
    ],
  },
];
