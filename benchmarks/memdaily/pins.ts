/**
 * The MemDaily files `adaptmr data pull` fetches (nuster1128/MemSim@db9d5d5): the 26 per-type files (the combined
 * `memdaily.json` is not in the repository), each checked against its sha256 and size (generated once from the
 * upstream blobs at this commit: `git show <commit>:<path> | sha256sum`).
 */
import type { PinnedFiles } from '../../src/core/benchmark.ts';

export const MEMDAILY_PIN = {
  repo: 'nuster1128/MemSim',
  commit: 'db9d5d552d6cb1d859f692eb7e6c0fd6d61d3815',
  upstreamRoot: 'data_generation/final_dataset/messages_and_QAs',
  localRoot: 'memdaily/messages_and_QAs',
  files: [
    ['01_simple_events.json', '592cd332c982959ffe67239fea2ccc7adf074258f0dc2527d9bf203d4a838a25', 246589],
    ['01_simple_hybrid.json', 'f0199afed0aaff46bdda788a80aeb291ac50b28980b7e1aee760733356ba4d5c', 726363],
    ['01_simple_items.json', '011906cb651f7e8ca3d87aeb654c24e8b24200a9a252c58ba6d1fbbb79e1be1e', 98094],
    ['01_simple_places.json', '6d0bf2f0e42a99c6ce06d066f6f251992776f435f83ff12240ced1a8bec8e4a9', 97085],
    ['01_simple_roles.json', '47659282fc524e22e810f34f895d387b4d76874fe92cc38aea5c8939d510293e', 240059],
    ['02_conditional_events.json', 'afdad9a6de1dc6af896d372345446259ff6e05b85a23d9ad3e6aba5b842abbf2', 250778],
    ['02_conditional_hybrid.json', 'b5a0fe68d7d78b55c08fc8f28e9da0ad513b8ca24cdcc4db448b4b0f062803c3', 747124],
    ['02_conditional_items.json', 'cbde35fff52a2d13100769daea52bac66ba7bce519a20068e0f9ba1ebd058dbf', 104263],
    ['02_conditional_places.json', '584d8cce4270301e547b62f5bf98e2acab79e4e3836ce811f7184d8d7a0a28b2', 103772],
    ['02_conditional_roles.json', '43b8e58baeb44df22c7d4188da47598c40b0fa35abb4d6b0434f5f97c8a255da', 244898],
    ['03_comparative_events.json', 'a11395761719255330bbd6ec10fc94b57a4bd7b46a239a6ad843efb400318764', 173182],
    ['03_comparative_hybrid.json', '5e3c27d0088708b043976a5dbc9ea97a6e202aecee8d51d94b9cc97b5c814f29', 845032],
    ['03_comparative_roles.json', '2478bb7e562515023a65a265e4cc68d3828a0cb70bc3b36d49dc78f2bef7039a', 160160],
    ['04_aggregative_events.json', '41543366aa1fc54bbfbbfe63d9bcd3448b72b90c64f1df3960bad68b16899cbe', 248125],
    ['04_aggregative_hybrid.json', '6ebd925f9f3dc1b6c78e16bdebf93c39d71df867aad1e941aced2f07eb82f547', 1331798],
    ['04_aggregative_roles.json', '2f198a0f5d083bdb649f262484b21bbb3000d76d7087714c87635f58921ddca2', 246876],
    ['05_post_processing_events.json', 'bfe15208ff59f92a66a3aee794af611fc42d8a07d450dd014b16ecd9e83c5295', 256553],
    ['05_post_processing_hybrid.json', 'f3bcc0b52a2173a649f48316fc3056acb2d7f2b7f5fd7366f7b3e2cd7cd33784', 988753],
    ['05_post_processing_items.json', '3c174e01dc76abfe715af0781499f8e9e66113f907cef0b49e4229f7c4c4adb4', 155674],
    ['05_post_processing_places.json', 'ad4418211751c62f3f77b0a27495479a1bf18cf37429e29dba65690871cd17fd', 156468],
    ['05_post_processing_roles.json', 'c31531f7cabcc64d1a3f206bb9a48e385029b7ac20f9e44c34ffa267e09df057', 251755],
    ['06_noisy_events.json', 'e1495bbab1ae954250286fb8613152de078184559866512d82fb2dee3398c8fa', 276176],
    ['06_noisy_hybrid.json', 'e275dbf5af90f21bc257b6bfec902eb400477c9cd99f9678af422ace83f0be78', 947014],
    ['06_noisy_items.json', '72e992f0dd3aa005b57f260f1c84314430aa45acde4b1be3dc7211ea978a638a', 119194],
    ['06_noisy_places.json', '21cbc7631b045cf538c083b0904d999b3ce6edca08a645a5c956db11403903be', 118083],
    ['06_noisy_roles.json', '660d31de2847ed2a154af9b50eed220332f6544d8fa828c5dbf8a38d5a21d3d8', 275029],
  ],
} as const satisfies PinnedFiles;
