"""Shared params of the HalluciGen tests: the faithfulness checks of hyp+."""



FAITHFUL = {"min_similarity": 0.3, "max_added_content": 0.4, "max_dropped_content": 0.5, "encoder": "e5",
            "encoder_sv": "e5", "entity_encoder": "e5", "min_encoder_similarity": {"en": 0.975, "sv": 0.97}}
