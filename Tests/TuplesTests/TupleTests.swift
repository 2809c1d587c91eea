import Foundation
import Tuples
import TestSupport
import XCTest

final class TupleTests: LeakCheckedTestCase {
    func testInit_keepsValuesAndHolesInOrder() {
        let tuple = Tuple("foo", 5, nil)
        XCTAssertEqual(tuple.count, 3)
        XCTAssertEqual(tuple[0] as? String, "foo")
        XCTAssertEqual(tuple[1] as? Int, 5)
        XCTAssertNil(tuple[2])
        XCTAssertEqual(tuple.values.count, 3)
    }

    func testInit_emptyTupleHasNoValues() {
        let tuple = Tuple()
        XCTAssertEqual(tuple.count, 0)
        XCTAssertNil(tuple.first)
        XCTAssertNil(tuple.last)
        XCTAssertEqual(Array(tuple).count, 0)
    }

    func testInit_nestedOptionalNilBecomesAHole() {
        let inner: Int?? = .some(nil)
        let noName: String? = nil
        let tuple = Tuple(inner as Any?, noName as Any?)
        XCTAssertEqual(tuple.count, 2)
        XCTAssertNil(tuple[0])
        XCTAssertNil(tuple[1])
        let three: Int?? = .some(.some(3))
        XCTAssertEqual(Tuple(three as Any?)[0] as? Int, 3)
    }

    func testInitArray_convertsNullsOnlyWhenAsked() {
        let array: [Any?] = [1, NSNull(), nil]
        let kept = Tuple(array: array)
        XCTAssertTrue(kept[1] is NSNull)
        XCTAssertNil(kept[2])
        let converted = Tuple(array: array, convertNullsToNils: true)
        XCTAssertEqual(converted.count, 3)
        XCTAssertEqual(converted[0] as? Int, 1)
        XCTAssertNil(converted[1])
        XCTAssertNil(converted[2])
    }

    func testPack_typedValuesAndNilOptionals() {
        let name: String? = nil
        let tuple = Tuple.pack(1, "two", name, 4.0)
        XCTAssertEqual(tuple, Tuple(1, "two", nil, 4.0))
        XCTAssertEqual(Tuple.pack().count, 0)
    }

    func testNamedAccessors_firstToFifthAndLast() {
        let tuple = Tuple(1, 2, 3, 4, 5, 6)
        XCTAssertEqual(tuple.first as? Int, 1)
        XCTAssertEqual(tuple.second as? Int, 2)
        XCTAssertEqual(tuple.third as? Int, 3)
        XCTAssertEqual(tuple.fourth as? Int, 4)
        XCTAssertEqual(tuple.fifth as? Int, 5)
        XCTAssertEqual(tuple.last as? Int, 6)
        let short = Tuple(1)
        XCTAssertNil(short.second)
        XCTAssertNil(short.fifth)
        XCTAssertEqual(short.last as? Int, 1)
    }

    func testAdding_appendsWithoutChangingTheOriginal() {
        let tuple = Tuple(1)
        let longer = tuple.adding(nil).adding("x")
        XCTAssertEqual(tuple.count, 1)
        XCTAssertEqual(longer, Tuple(1, nil, "x"))
    }

    func testUnpack_typedValues() throws {
        let (name, age, height) = try Tuple("Ada", 36, 1.7).unpack(as: String.self, Int.self, Double.self)
        XCTAssertEqual(name, "Ada")
        XCTAssertEqual(age, 36)
        XCTAssertEqual(height, 1.7)
    }

    func testUnpack_optionalTypeAcceptsAHole() throws {
        let (name, nickname) = try Tuple("Ada", nil).unpack(as: String.self, String?.self)
        XCTAssertEqual(name, "Ada")
        XCTAssertNil(nickname)
    }

    func testUnpack_wrongCountThrowsCountMismatch() {
        XCTAssertThrowsError(try Tuple("foo", 5, nil).unpack(as: String.self, Int.self)) { error in
            XCTAssertEqual(error as? TupleError, .countMismatch(expected: 2, actual: 3))
            XCTAssertEqual("\(error)", "Tuple.unpack: expected 2 values, the tuple has 3")
        }
    }

    func testUnpack_wrongTypeThrowsTypeMismatchNamingIndexAndTypes() {
        XCTAssertThrowsError(try Tuple("foo", "5").unpack(as: String.self, Int.self)) { error in
            XCTAssertEqual(error as? TupleError, .typeMismatch(index: 1, expected: "Int", actual: "String"))
            XCTAssertEqual("\(error)", "Tuple.unpack: the value at index 1 is String, not Int")
        }
    }

    func testUnpack_holeForNonOptionalTypeThrowsTypeMismatchWithNil() {
        XCTAssertThrowsError(try Tuple(nil, 1).unpack(as: String.self, Int.self)) { error in
            XCTAssertEqual(error as? TupleError, .typeMismatch(index: 0, expected: "String", actual: "nil"))
        }
    }

    /// A hole cast to `Any` became a value (`Optional<Any>.none` boxed), and to `AnyObject` an
    /// `NSNull`-like object: only an `Optional` type may take a hole, as documented.
    func testUnpack_holeForAnyOrAnyObjectThrowsTypeMismatch_onlyAnOptionalTypeTakesIt() throws {
        XCTAssertThrowsError(try Tuple(1, nil).unpack(as: Int.self, Any.self)) { error in
            XCTAssertEqual(error as? TupleError, .typeMismatch(index: 1, expected: "Any", actual: "nil"))
        }
        XCTAssertThrowsError(try Tuple(1, nil).unpack(as: Int.self, AnyObject.self)) { error in
            XCTAssertEqual(error as? TupleError, .typeMismatch(index: 1, expected: "AnyObject", actual: "nil"))
        }
        XCTAssertThrowsError(try Tuple(nil, 1).unpack(as: Int.self, Int.self)) { error in
            XCTAssertEqual(error as? TupleError, .typeMismatch(index: 0, expected: "Int", actual: "nil"))
        }
        let (number, missing) = try Tuple(1, nil).unpack(as: Int.self, Int?.self)
        XCTAssertEqual(number, 1)
        XCTAssertNil(missing)
        let (anyMissing, objectMissing) = try Tuple(nil, nil).unpack(as: Any?.self, AnyObject?.self)
        XCTAssertNil(anyMissing)
        XCTAssertNil(objectMissing)
        // A value still unpacks as `Any` and as `Int?`.
        let (any, optional) = try Tuple(5, 6).unpack(as: Any.self, Int?.self)
        XCTAssertEqual(any as? Int, 5)
        XCTAssertEqual(optional, 6)
    }

    func testSequence_iteratesValuesWithHoles() {
        let values = Array(Tuple(1, nil, 3)).map { $0 as? Int }
        XCTAssertEqual(values, [1, nil, 3])
    }

    func testEquality_elementwiseWithHolesAndObjects() {
        let object = NSObject()
        XCTAssertEqual(Tuple(1, "a", nil), Tuple(1, "a", nil))
        XCTAssertNotEqual(Tuple(1, "a"), Tuple(1, "b"))
        XCTAssertNotEqual(Tuple(1), Tuple(1, nil))
        XCTAssertNotEqual(Tuple(nil), Tuple(0))
        XCTAssertEqual(Tuple(object), Tuple(object))
        XCTAssertNotEqual(Tuple(NonHashableBox()), Tuple(NonHashableBox()))
    }

    func testHashable_equalTuplesHashEqually() {
        let set: Set<Tuple> = [Tuple(1, nil, "x"), Tuple(1, nil, "x"), Tuple(2)]
        XCTAssertEqual(set.count, 2)
        XCTAssertEqual(Tuple(1, "a").hashValue, Tuple(1, "a").hashValue)
    }

    func testDescription_listsValuesAndNil() {
        XCTAssertEqual(Tuple("foo", 5, nil).description, "(foo, 5, nil)")
        XCTAssertEqual(Tuple().description, "()")
    }
}

private final class NonHashableBox {}
