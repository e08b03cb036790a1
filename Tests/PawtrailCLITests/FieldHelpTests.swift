import Events
@testable import PawtrailCLI
import PawtrailDomain
import Testing

/// Every option of every domain verb says what it means in the shop's words, not only its format.
@Suite struct FieldHelpTests {
    @Test func `every field of every command has its meaning written down`() {
        var missing: [String] = []
        for command in CommandCatalog.all {
            for field in command.fields where FieldHelp.text(field.key, of: command.name) == nil {
                missing.append("\(command.name).\(field.key)")
            }
        }
        #expect(missing.isEmpty, "no help for: \(missing.joined(separator: ", "))")
    }

    @Test func `a command's own meaning of a name comes before the common one`() {
        #expect(FieldHelp.text("name", of: "pet.add") == "The pet's name.")
        #expect(FieldHelp.text("name", of: "product.add") == "The product's name, as customers see it.")
        #expect(FieldHelp.text("petId", of: "pet.edit") == "The pet's id.")
        #expect(FieldHelp.text("noSuchField", of: "pet.add") == nil)
    }
}
