/** The Librarian: the caretaker sweep (plan → act per phase), the organizer, health checks, the report, undo. */
export { runSweep, PHASES, BACKLOG_PHASES, SWEEP_DEFAULTS, type SweepOptions, type SweepReport, type PhaseName, type PhaseReport } from './sweep.js';
export { planOrganize, vote, moveNote, planMove, recordProposals, listOrganizeProposals, decideProposals, ORGANIZE_DEFAULTS, type Filing, type OrganizePlan, type OrganizeProposal, type MoveContext } from './organize.js';
export { runHealthChecks, type HealthCheck } from './health.js';
export { renderSection, mergeReport } from './report.js';
export { undoRun, resyncGraph, resyncGraphIfTouched, type UndoRunReport } from './undo.js';
export { extractionPaused, lastSweep, type SweepSummary } from './status.js';
export { sweepOptions, newRunId, type LibrarianSettings } from './setup.js';
export { recallBundle, projectMentioned, briefing, type RecallBundle, type RecallOptions, type RecallSection } from './recall.js';
export { listNotes, encodeCursor, LIST_NOTES_DEFAULTS, type ListedNote, type ListNotesOptions } from './list-notes.js';
export {
  parseIssue,
  setFields,
  renderIssue,
  renderProject,
  takeIssueNumber,
  transitionProblem,
  projectNameProblem,
  yamlValue,
  yamlList,
  ISSUE_STATUSES,
  ISSUE_PRIORITIES,
  CLOSED,
  PROJECT_DEFAULTS,
  type IssueRecord,
  type IssueStatus,
} from './issues.js';
export { decideProposal, pendingProposals, proposalStatus, type DecidePlace, type Decision, type Decided } from './decide.js';
export { tickProblem, markDecidedElsewhere, filingSubject, mergeSubject, type ListedProposal, type ProposalKind } from './approvals.js';
export { Caretaker, describeLease, readLeaseNote, type CaretakerOptions, type LeaseStatus } from './caretaker.js';
export { LEASE_DEFAULTS, leasePath, oneOffRefusal, parseLease, type LeaseTimings } from './lease.js';
export { readTicks, type Tick } from './approvals.js';
