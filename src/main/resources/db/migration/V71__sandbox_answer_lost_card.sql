-- The sandbox's kept card whose later charges are approved but whose answers are lost (4000000000000150, ours): an
-- unknown outcome without the customer, for subscriptions' charges and their test clocks (issue 33).
alter table sandbox_processor_methods drop constraint sandbox_processor_methods_behaviour_check;
alter table sandbox_processor_methods add constraint sandbox_processor_methods_behaviour_check
    check (behaviour in ('approve', 'decline_hard', 'decline_soft', 'decline_soft_once', 'authenticate',
                         'approve_answer_lost'));
