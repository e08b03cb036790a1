import BenchSupport
import EventLog
import Events
import PawtrailDomain

// Messaging: conversations about a customer's booking, vet request or order; messages both ways; delivery and
// read receipts from the other side, once each.
extension Business {
    /// Starts a conversation about a recent subject, writes in one, or reads what staff wrote.
    func messaging(_ c: Int) {
        let owner = customers[c].id
        if let k = customers[c].conversations.last, rng.chance(0.65) {
            if conversations[k].messages.contains(where: { $0.fromStaff && !$0.read }) {
                receipts(k, reader: owner, role: .customer, ofStaff: true, read: true)
            } else {
                send(k, from: owner, role: .customer, staff: false)
            }
            return
        }
        guard !customers[c].subjects.isEmpty else { return }
        let subject = rng.pick(customers[c].subjects)
        let id = newID("c")
        command(
            "conversation.start", as: owner, role: .customer,
            [(Streams.conversation(id), ConversationStarted(conversationId: id, subject: subject.kind, subjectId: subject.id, ownerId: owner, startedBy: owner))])
        conversations.append(Conversation(id: id, owner: c, staff: rng.pick(staff)))
        let k = conversations.count - 1
        customers[c].conversations.append(k)
        if customers[c].conversations.count > 5 { customers[c].conversations.removeFirst() }
        send(k, from: owner, role: .customer, staff: false)
    }

    /// `conversation.send`; a customer's message gets a staff reply later, a staff message receipts later.
    private func send(_ k: Int, from sender: String, role: Role, staff fromStaff: Bool) {
        let id = newID("m")
        let text = fromStaff ? rng.pick(Names.staffTexts) : rng.pick(Names.texts)
        command(
            "conversation.send", as: sender, role: role,
            [(Streams.conversation(conversations[k].id), MessageSent(conversationId: conversations[k].id, messageId: id, senderId: sender, text: text))])
        conversations[k].messages.append(Message(id: id, fromStaff: fromStaff))
        if fromStaff {
            schedule(.customerReceipts(k), after: Self.minute...(4 * Self.hour))
        } else {
            schedule(.staffReply(k), after: (5 * Self.minute)...(2 * Self.hour))
        }
    }

    /// `conversation.mark-delivered` for each message of the other side not yet delivered, then (when `read`)
    /// `conversation.mark-read` up to the last one.
    private func receipts(_ k: Int, reader: String, role: Role, ofStaff: Bool, read: Bool) {
        let stream = Streams.conversation(conversations[k].id)
        for i in conversations[k].messages.indices where conversations[k].messages[i].fromStaff == ofStaff && !conversations[k].messages[i].delivered {
            conversations[k].messages[i].delivered = true
            command(
                "conversation.mark-delivered", as: reader, role: role,
                [(stream, MessageDelivered(conversationId: conversations[k].id, messageId: conversations[k].messages[i].id, participantId: reader))])
        }
        guard read, let last = conversations[k].messages.lastIndex(where: { $0.fromStaff == ofStaff }) else { return }
        var events: [(StreamID, any DomainEvent)] = []
        for i in 0...last where conversations[k].messages[i].fromStaff == ofStaff && !conversations[k].messages[i].read {
            conversations[k].messages[i].read = true
            events.append((stream, MessageRead(conversationId: conversations[k].id, messageId: conversations[k].messages[i].id, participantId: reader)))
        }
        command("conversation.mark-read", as: reader, role: role, events)
    }

    /// The conversation's staff member receives and reads the customer's messages and answers.
    func staffReply(_ k: Int) {
        guard conversations[k].messages.contains(where: { !$0.fromStaff && !$0.read }) else { return }
        let member = conversations[k].staff
        receipts(k, reader: member, role: .staff, ofStaff: false, read: true)
        send(k, from: member, role: .staff, staff: true)
    }

    /// The customer's app receives staff messages; often they are read at once.
    func customerReceipts(_ k: Int) {
        let c = conversations[k].owner
        guard !customers[c].deleted else { return }
        receipts(k, reader: customers[c].id, role: .customer, ofStaff: true, read: rng.chance(0.6))
    }
}
