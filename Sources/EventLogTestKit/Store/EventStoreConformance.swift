import EventLog
import Foundation

/// The cases every ``EventStore`` must pass, in the spirit of swift-log's `LogHandler` requirements: each backend's
/// tests run every case against a fresh, empty store of theirs, made by a ``StoreHarness``.
///
/// ```swift
/// @Test(arguments: EventStoreConformance.cases)
/// func conformance(_ c: EventStoreConformance.Case) async throws {
///     try await c.run(MyHarness())
/// }
/// ```
///
/// The cases check with Swift Testing's `#expect`, so they must run inside a test. They cover records and their
/// round trip, positions, versions and time, limits, every expected version against a missing and an existing
/// stream, KurrentDB's `append_to_stream` and idempotency cases, retries by event id, atomic appends over several
/// streams with check-only conditions, concurrent writers, reads (by stream, category, type, backward, paged) and
/// follow mode.
public enum EventStoreConformance {
    /// One case: the concern it belongs to, its name, and the check.
    public struct Case: Sendable, CustomStringConvertible {
        /// The concern (`reads`, `idempotency`).
        public let concern: String
        /// The case's name within its concern.
        public let name: String
        /// Runs the case on a fresh harness.
        public let run: @Sendable (any StoreHarness) async throws -> Void

        init(_ concern: String, _ name: String, _ run: @escaping @Sendable (any StoreHarness) async throws -> Void) {
            self.concern = concern
            self.name = name
            self.run = run
        }

        public var description: String { "\(concern): \(name)" }
    }

    /// Every case.
    public static let cases: [Case] = [
        // records round-trip
        Case("records round-trip", "everyRecordFieldRoundTrips", RecordRoundTripCases.everyRecordFieldRoundTrips),
        Case("records round-trip", "emptyDataAndEmptyMetadataRoundTrip", RecordRoundTripCases.emptyDataAndEmptyMetadataRoundTrip),
        Case("records round-trip", "eventOfExactlyTheMaximumSizeIsAccepted", RecordRoundTripCases.eventOfExactlyTheMaximumSizeIsAccepted),
        Case("records round-trip", "eventOneByteOverTheMaximumSizeIsRejected", RecordRoundTripCases.eventOneByteOverTheMaximumSizeIsRejected),
        Case("records round-trip", "unicodeStreamIDsRoundTrip", RecordRoundTripCases.unicodeStreamIDsRoundTrip),
        Case("records round-trip", "streamsFollowStreamIDEqualityForCanonicallyEquivalentIDs", RecordRoundTripCases.streamsFollowStreamIDEqualityForCanonicallyEquivalentIDs),
        Case("records round-trip", "tenThousandEventsInOneAppendAreAccepted", RecordRoundTripCases.tenThousandEventsInOneAppendAreAccepted),
        Case("records round-trip", "tenThousandAndOneEventsInOneAppendAreRejected", RecordRoundTripCases.tenThousandAndOneEventsInOneAppendAreRejected),
        // positions, versions, time
        Case("positions, versions, time", "positionsAreGaplessFromZeroAcrossAppendsAndStreams", PositionCases.positionsAreGaplessFromZeroAcrossAppendsAndStreams),
        Case("positions, versions, time", "theTimeIndexFindsTheLastEventRecordedAtOrBeforeATime", PositionCases.theTimeIndexFindsTheLastEventRecordedAtOrBeforeATime),
        Case("positions, versions, time", "emptyStoreHasNoPositionAndNoStreams", PositionCases.emptyStoreHasNoPositionAndNoStreams),
        Case("positions, versions, time", "versionsAreZeroBasedPerStream", PositionCases.versionsAreZeroBasedPerStream),
        Case("positions, versions, time", "theStreamIndexGivesEachVersionsPosition", PositionCases.theStreamIndexGivesEachVersionsPosition),
        // limits
        Case("limits", "storeRejectsInvalidStreamIDsMadeUnchecked", LimitCases.storeRejectsInvalidStreamIDsMadeUnchecked),
        Case("limits", "eventTypeRules", LimitCases.eventTypeRules),
        Case("limits", "metadataLimits", LimitCases.metadataLimits),
        Case("limits", "duplicateEventIDWithinOneAppendIsRejected", LimitCases.duplicateEventIDWithinOneAppendIsRejected),
        Case("limits", "twoExpectationsForOneStreamAreRejected", LimitCases.twoExpectationsForOneStreamAreRejected),
        Case("limits", "appendOverTheTotalSizeLimitIsRejected", LimitCases.appendOverTheTotalSizeLimitIsRejected),
        Case("limits", "appendNamingTooManyStreamsIsRejected", LimitCases.appendNamingTooManyStreamsIsRejected),
        Case("limits", "emptyAppendIsANoOpThatReportsTheCurrentVersion", LimitCases.emptyAppendIsANoOpThatReportsTheCurrentVersion),
        Case("limits", "emptyAppendToAMissingStreamUnderEachExpectedVersion", LimitCases.emptyAppendToAMissingStreamUnderEachExpectedVersion),
        // expected versions
        Case("expected versions", "wrongExpectedVersionErrorNamesTheStreamAndBothVersions", ExpectedVersionMatrixCases.wrongExpectedVersionErrorNamesTheStreamAndBothVersions),
    ] + ExpectationCase.all.map { c in
        Case("expected versions", "\(c)", { try await ExpectedVersionMatrixCases.expectedVersionMatrix($0, c) })
    } + [
        // KurrentDB append_to_stream
        Case("KurrentDB append_to_stream", "should_allow_appending_zero_events_to_stream_with_no_problems", KurrentDBAppendToStreamCases.`should_allow_appending_zero_events_to_stream_with_no_problems`),
        Case("KurrentDB append_to_stream", "should_create_stream_with_no_stream_exp_ver_on_first_write_if_does_not_exist", KurrentDBAppendToStreamCases.`should_create_stream_with_no_stream_exp_ver_on_first_write_if_does_not_exist`),
        Case("KurrentDB append_to_stream", "should_create_stream_with_any_exp_ver_on_first_write_if_does_not_exist", KurrentDBAppendToStreamCases.`should_create_stream_with_any_exp_ver_on_first_write_if_does_not_exist`),
        Case("KurrentDB append_to_stream", "multiple_idempotent_writes", KurrentDBAppendToStreamCases.`multiple_idempotent_writes`),
        Case("KurrentDB append_to_stream", "multiple_idempotent_writes_with_same_id_bug_case", KurrentDBAppendToStreamCases.`multiple_idempotent_writes_with_same_id_bug_case`),
        Case("KurrentDB append_to_stream", "in_case_where_multiple_writes_of_multiple_events_with_the_same_ids_using_expected_version_any_then_next_expected_version_is_unreliable", KurrentDBAppendToStreamCases.`in_case_where_multiple_writes_of_multiple_events_with_the_same_ids_using_expected_version_any_then_next_expected_version_is_unreliable`),
        Case("KurrentDB append_to_stream", "in_case_where_multiple_writes_of_multiple_events_with_the_same_ids_using_expected_version_nostream_then_next_expected_version_is_correct", KurrentDBAppendToStreamCases.`in_case_where_multiple_writes_of_multiple_events_with_the_same_ids_using_expected_version_nostream_then_next_expected_version_is_correct`),
        Case("KurrentDB append_to_stream", "should_return_log_position_when_writing", KurrentDBAppendToStreamCases.`should_return_log_position_when_writing`),
        Case("KurrentDB append_to_stream", "should_append_with_correct_exp_ver_to_existing_stream", KurrentDBAppendToStreamCases.`should_append_with_correct_exp_ver_to_existing_stream`),
        Case("KurrentDB append_to_stream", "should_append_with_any_exp_ver_to_existing_stream", KurrentDBAppendToStreamCases.`should_append_with_any_exp_ver_to_existing_stream`),
        Case("KurrentDB append_to_stream", "should_fail_appending_with_wrong_exp_ver_to_existing_stream (stream missing)", KurrentDBAppendToStreamCases.`should_fail_appending_with_wrong_exp_ver_to_existing_stream (stream missing)`),
        Case("KurrentDB append_to_stream", "should_fail_appending_with_wrong_exp_ver_to_existing_stream", KurrentDBAppendToStreamCases.`should_fail_appending_with_wrong_exp_ver_to_existing_stream`),
        Case("KurrentDB append_to_stream", "should_append_with_stream_exists_exp_ver_to_existing_stream", KurrentDBAppendToStreamCases.`should_append_with_stream_exists_exp_ver_to_existing_stream`),
        Case("KurrentDB append_to_stream", "should_append_with_stream_exists_exp_ver_to_stream_with_multiple_events", KurrentDBAppendToStreamCases.`should_append_with_stream_exists_exp_ver_to_stream_with_multiple_events`),
        Case("KurrentDB append_to_stream", "should_fail_appending_with_stream_exists_exp_ver_and_stream_does_not_exist", KurrentDBAppendToStreamCases.`should_fail_appending_with_stream_exists_exp_ver_and_stream_does_not_exist`),
        Case("KurrentDB append_to_stream", "can_append_multiple_events_at_once", KurrentDBAppendToStreamCases.`can_append_multiple_events_at_once`),
        Case("KurrentDB append_to_stream", "cannot_append_multiple_events_larger_than_chunk_size_at_once", KurrentDBAppendToStreamCases.`cannot_append_multiple_events_larger_than_chunk_size_at_once`),
        Case("KurrentDB append_to_stream", "can_append_to_stream_with_long_name", KurrentDBAppendToStreamCases.`can_append_to_stream_with_long_name`),
        Case("KurrentDB append_to_stream", "can_append_multiple_events_to_stream_with_long_name_at_once", KurrentDBAppendToStreamCases.`can_append_multiple_events_to_stream_with_long_name_at_once`),
        Case("KurrentDB append_to_stream", "can_append_event_with_long_event_type", KurrentDBAppendToStreamCases.`can_append_event_with_long_event_type`),
        Case("KurrentDB append_to_stream", "can_append_multiple_events_with_long_event_type_at_once", KurrentDBAppendToStreamCases.`can_append_multiple_events_with_long_event_type_at_once`),
        Case("KurrentDB append_to_stream", "returns_failure_status_when_conditionally_appending_with_version_mismatch", KurrentDBAppendToStreamCases.`returns_failure_status_when_conditionally_appending_with_version_mismatch`),
        Case("KurrentDB append_to_stream", "returns_success_status_when_conditionally_appending_with_matching_version", KurrentDBAppendToStreamCases.`returns_success_status_when_conditionally_appending_with_matching_version`),
        // KurrentDB HTTP idempotency
        Case("KurrentDB HTTP idempotency", "when_posting_to_idempotent_guid_id_twice", KurrentDBIdempotencyCases.`when_posting_to_idempotent_guid_id_twice`),
        Case("KurrentDB HTTP idempotency", "when_posting_to_idempotent_guid_id_three_times", KurrentDBIdempotencyCases.`when_posting_to_idempotent_guid_id_three_times`),
        Case("KurrentDB HTTP idempotency", "when_posting_an_event_three_times_as_array", KurrentDBIdempotencyCases.`when_posting_an_event_three_times_as_array`),
        Case("KurrentDB HTTP idempotency", "when_posting_to_idempotent_guid_id_then_as_array", KurrentDBIdempotencyCases.`when_posting_to_idempotent_guid_id_then_as_array`),
        Case("KurrentDB HTTP idempotency", "when_posting_an_event_once_raw_once_with_array", KurrentDBIdempotencyCases.`when_posting_an_event_once_raw_once_with_array`),
        // idempotency
        Case("idempotency", "idempotencyIsDurableAcrossReopening", IdempotencyCases.idempotencyIsDurableAcrossReopening),
        Case("idempotency", "identicalRetryReturnsTheOriginalResultAndWritesNothing", IdempotencyCases.identicalRetryReturnsTheOriginalResultAndWritesNothing),
        Case("idempotency", "retriesAreRecognisedForOldCommits", IdempotencyCases.retriesAreRecognisedForOldCommits),
        Case("idempotency", "retryWithExactExpectedVersionSucceedsAfterTheStreamMovedOn", IdempotencyCases.retryWithExactExpectedVersionSucceedsAfterTheStreamMovedOn),
        Case("idempotency", "retryWithAnExpectationThatWouldNotHavePutTheEventsThereConflicts", IdempotencyCases.retryWithAnExpectationThatWouldNotHavePutTheEventsThereConflicts),
        Case("idempotency", "reusedIDWithOtherContentConflicts", IdempotencyCases.reusedIDWithOtherContentConflicts),
        Case("idempotency", "idCommittedToAnotherStreamConflicts", IdempotencyCases.idCommittedToAnotherStreamConflicts),
        Case("idempotency", "partialOverlapConflicts", IdempotencyCases.partialOverlapConflicts),
        Case("idempotency", "retryInAnotherOrderConflicts", IdempotencyCases.retryInAnotherOrderConflicts),
        Case("idempotency", "gregYoungsPartialRetry", IdempotencyCases.gregYoungsPartialRetry),
        Case("idempotency", "retryIgnoresCheckOnlyConditionsThatNoLongerHold", IdempotencyCases.retryIgnoresCheckOnlyConditionsThatNoLongerHold),
        Case("idempotency", "concurrentIdenticalAppendsWriteOnce", IdempotencyCases.concurrentIdenticalAppendsWriteOnce),
        Case("idempotency", "eachCommittedEventIsFoundByItsID", IdempotencyCases.eachCommittedEventIsFoundByItsID),
        // multi-stream appends
        Case("multi-stream appends", "allStreamsCommitTogether", MultiStreamAppendCases.allStreamsCommitTogether),
        Case("multi-stream appends", "oneFailingExpectationLeavesNoTraceOnAnyStream", MultiStreamAppendCases.oneFailingExpectationLeavesNoTraceOnAnyStream),
        Case("multi-stream appends", "oneFailingCheckOnlyConditionLeavesNoTrace", MultiStreamAppendCases.oneFailingCheckOnlyConditionLeavesNoTrace),
        Case("multi-stream appends", "checkOnlyStreamNeverGetsEvents", MultiStreamAppendCases.checkOnlyStreamNeverGetsEvents),
        Case("multi-stream appends", "streamBothWrittenAndCheckOnlyIsRejected", MultiStreamAppendCases.streamBothWrittenAndCheckOnlyIsRejected),
        Case("multi-stream appends", "stockSafeCheckout", MultiStreamAppendCases.stockSafeCheckout),
        Case("multi-stream appends", "concurrentCheckoutsOnlyOneWins", MultiStreamAppendCases.concurrentCheckoutsOnlyOneWins),
        // concurrency
        Case("concurrency", "writersRacingOnOneStreamWithExactVersionsLoseNothing", ConcurrencyCases.writersRacingOnOneStreamWithExactVersionsLoseNothing),
        Case("concurrency", "writersOnTheirOwnStreamsInterleaveWithoutGaps", ConcurrencyCases.writersOnTheirOwnStreamsInterleaveWithoutGaps),
        Case("concurrency", "readersNeverSeePartOfACommit", ConcurrencyCases.readersNeverSeePartOfACommit),
        Case("concurrency", "racingAppendsWithNoStreamCreateTheStreamOnce", ConcurrencyCases.racingAppendsWithNoStreamCreateTheStreamOnce),
        Case("concurrency", "racingAppendsReusingOneIDOnDifferentStreamsCommitOnce", ConcurrencyCases.racingAppendsReusingOneIDOnDifferentStreamsCommitOnce),
        Case("concurrency", "failuresInAGroupDoNotDisturbTheOthers", ConcurrencyCases.failuresInAGroupDoNotDisturbTheOthers),
        Case("concurrency", "racingIdenticalAppendsAllReportTheOneCommit", ConcurrencyCases.racingIdenticalAppendsAllReportTheOneCommit),
        // reads
        Case("reads", "streamForwardPagesUntilNextIsNil", ReadCases.streamForwardPagesUntilNextIsNil),
        Case("reads", "streamBackwardPagesUntilNextIsNil", ReadCases.streamBackwardPagesUntilNextIsNil),
        Case("reads", "allForwardFromAPosition", ReadCases.allForwardFromAPosition),
        Case("reads", "allBackward", ReadCases.allBackward),
        Case("reads", "categoryIsTheStreamIDBeforeTheFirstDash", ReadCases.categoryIsTheStreamIDBeforeTheFirstDash),
        Case("reads", "filterByEventType", ReadCases.filterByEventType),
        Case("reads", "categoryAndTypeFiltersCompareBytesLikeStreamIDs", ReadCases.categoryAndTypeFiltersCompareBytesLikeStreamIDs),
        Case("reads", "nextAfterAFullFilteredPageIsTheFirstEventNotExamined", ReadCases.nextAfterAFullFilteredPageIsTheFirstEventNotExamined),
        Case("reads", "backwardReadsFromPastTheEndStartAtTheEnd", ReadCases.backwardReadsFromPastTheEndStartAtTheEnd),
        Case("reads", "readingPastTheEndIsEmptyWithNoNext", ReadCases.readingPastTheEndIsEmptyWithNoNext),
        Case("reads", "emptyStoreReadsAreEmpty", ReadCases.emptyStoreReadsAreEmpty),
        Case("reads", "limitZeroOrNegativeIsRejected", ReadCases.limitZeroOrNegativeIsRejected),
        Case("reads", "forEachPageVisitsEverythingAndStops", ReadCases.forEachPageVisitsEverythingAndStops),
        Case("reads", "sparseFilteredReadsOverManyEventsFindEveryMatch", ReadCases.sparseFilteredReadsOverManyEventsFindEveryMatch),
        // follow and waitForAppends
        Case("follow and waitForAppends", "followYieldsExistingEventsThenLaterOnesInOrder", FollowCases.followYieldsExistingEventsThenLaterOnesInOrder),
        Case("follow and waitForAppends", "followFromAPositionAndOfACategoryWithATypeFilter", FollowCases.followFromAPositionAndOfACategoryWithATypeFilter),
        Case("follow and waitForAppends", "followWithATypeFilterWaitsInsteadOfRereadingAFilteredOutTail", FollowCases.followWithATypeFilterWaitsInsteadOfRereadingAFilteredOutTail),
        Case("follow and waitForAppends", "followFromPastTheEndStartsAtThatPosition", FollowCases.followFromPastTheEndStartsAtThatPosition),
        Case("follow and waitForAppends", "cancellingTheFollowerEndsIt", FollowCases.cancellingTheFollowerEndsIt),
        Case("follow and waitForAppends", "waitForAppendsReportsEventsAfterAPosition", FollowCases.waitForAppendsReportsEventsAfterAPosition),
        Case("follow and waitForAppends", "waitForAppendsWakesForAConcurrentAppend", FollowCases.waitForAppendsWakesForAConcurrentAppend),
    ]
}
